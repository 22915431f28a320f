package dev.proofline.topology;

import dev.proofline.contract.Topics;
import dev.proofline.engine.VerificationEngine;
import dev.proofline.schemas.avro.Receipt;
import java.time.Clock;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;

/**
 * The verification half of the Kafka contract ({@code docs/kafka.md}) as a Kafka Streams topology:
 * <pre>
 *   agent-outputs ──► verify ─┬─ valid ───► receipts           (Avro receipt, key: agent or task id)
 *                             └─ invalid ─► agent-outputs.dlq  (error document, originals in headers)
 * </pre>
 * Bytes in: the processor, not a deserializer, decides what is invalid, so nothing fails before it
 * can be dead-lettered.
 */
public final class VerificationTopology {
    public static final String SOURCE = "agent-outputs-source";
    static final String VERIFY = "verify";
    static final String RECEIPTS_SINK = "receipts-sink";
    static final String DEAD_LETTER_SINK = "dead-letter-sink";

    private VerificationTopology() {}

    public static Topology build(
            Topics topics,
            VerificationEngine engine,
            Serde<Receipt> receiptSerde,
            Clock clock,
            Attribution attribution) {
        return addTo(
                new Topology(),
                topics,
                engine,
                receiptSerde,
                clock,
                PipelineListener.NONE,
                attribution,
                EagerCommit.NEVER,
                TopicLimits.NONE,
                PassLimit.NONE);
    }

    /** Adds the verification nodes to a topology that may hold others (the reputation KTable). */
    @SuppressWarnings("unchecked")
    public static Topology addTo(
            Topology topology,
            Topics topics,
            VerificationEngine engine,
            Serde<Receipt> receiptSerde,
            Clock clock,
            PipelineListener listener,
            Attribution attribution,
            EagerCommit eagerCommit,
            TopicLimits limits,
            PassLimit passLimit) {
        Serializer<Object> keys = (Serializer<Object>) (Serializer<?>) new StringSerializer();
        Serializer<Object> receipts = (Serializer<Object>) (Serializer<?>) receiptSerde.serializer();
        Serializer<Object> bytes = (Serializer<Object>) (Serializer<?>) new ByteArraySerializer();
        return topology.addSource(SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.input())
                .addProcessor(
                        VERIFY,
                        new VerifyProcessorSupplier(
                                engine, clock, listener, attribution, eagerCommit, limits, passLimit),
                        SOURCE)
                .addSink(RECEIPTS_SINK, topics.receipts(), keys, receipts, VERIFY)
                .addSink(DEAD_LETTER_SINK, topics.deadLetter(), bytes, bytes, VERIFY);
    }
}
