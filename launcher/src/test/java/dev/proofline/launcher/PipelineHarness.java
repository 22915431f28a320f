package dev.proofline.launcher;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.StrictJson;
import dev.proofline.attestor.TrustedKeys;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.RestSchemaRegistryClient;
import dev.proofline.schemas.avro.Receipt;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntPredicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Produces test requests and reads what the pipeline made of them, as a client outside it would. */
final class PipelineHarness {
    private PipelineHarness() {}

    static void produce(String bootstrap, int from, int to) {
        produce(bootstrap, "task-", from, to);
    }

    static void produce(String bootstrap, String taskPrefix, int from, int to) {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.LINGER_MS_CONFIG,
                5);
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer())) {
            for (int i = from; i < to; i++) {
                producer.send(new ProducerRecord<>(
                        "agent-outputs", TestRequests.agentId(i), TestRequests.request(taskPrefix, i)));
            }
            producer.flush();
        }
    }

    static int count(int from, int to, IntPredicate which) {
        int n = 0;
        for (int i = from; i < to; i++) {
            n += which.test(i) ? 1 : 0;
        }
        return n;
    }

    /** Reads a topic with read_committed from the beginning until {@code expected} records or the timeout, then a little longer. */
    static List<ConsumerRecord<String, byte[]>> readCommitted(
            String bootstrap, String topic, int expected, Duration timeout) {
        return readCommitted(bootstrap, topic, expected, timeout, Duration.ofSeconds(2));
    }

    /**
     * The same, reading on for {@code settle} once {@code expected} are in (anything extra would show
     * up then); {@link Duration#ZERO} returns at once, for a test that acts the moment they are in.
     */
    static List<ConsumerRecord<String, byte[]>> readCommitted(
            String bootstrap, String topic, int expected, Duration timeout, Duration settle) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "test-reader-" + UUID.randomUUID());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (records.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(250)).forEach(records::add);
            }
            long settled = System.nanoTime() + settle.toNanos();
            while (System.nanoTime() < settled) {
                consumer.poll(Duration.ofMillis(250)).forEach(records::add);
            }
        }
        return records;
    }

    /** Decodes receipts through the registry's REST API and checks every signature; returns them by task id. */
    static Map<String, List<Receipt>> verifiedReceiptsByTask(
            List<ConsumerRecord<String, byte[]>> records, String registryUrl, TrustedKeys keys) {
        AvroSerde<Receipt> serde = new AvroSerde<>(new RestSchemaRegistryClient(registryUrl), Receipt.getClassSchema());
        ReceiptVerifier verifier = new ReceiptVerifier(keys);
        Map<String, List<Receipt>> byTask = new HashMap<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            Receipt receipt = serde.deserialize(record.value());
            var outcome =
                    verifier.verifySignature(StrictJson.parse(receipt.getSignedJson()), AttestationContext.VERIFY);
            if (!outcome.valid()) {
                throw new AssertionError(
                        "receipt " + receipt.getVerificationId() + " does not verify: " + outcome.reason());
            }
            if (!record.key().equals(receipt.getAgentId() != null ? receipt.getAgentId() : receipt.getTaskId())) {
                throw new AssertionError("receipt keyed " + record.key() + " for agent " + receipt.getAgentId());
            }
            byTask.computeIfAbsent(receipt.getTaskId(), t -> new ArrayList<>()).add(receipt);
        }
        return byTask;
    }

    static String header(ConsumerRecord<?, ?> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
