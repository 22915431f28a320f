package dev.proofline.client;

import dev.proofline.attestor.TrustedKeys;
import dev.proofline.contract.Topics;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.CorrelatedReplies;
import dev.proofline.schemas.SchemaRegistryClient;
import dev.proofline.schemas.avro.Receipt;
import java.util.Map;

/**
 * Receipts for downstream agents, as they land on the receipts topic (committed ones only), each
 * signature checked against the agent-card's keys: valid receipts go to {@link Listener#onReceipt},
 * anything else to {@link Listener#onInvalid}; nothing is dropped silently. Optionally the
 * dead-letter topic too, for callers waiting on their own requests.
 */
public final class VerifiedReceiptStream implements AutoCloseable {

    /** Called on the stream's own thread, in topic order per partition. */
    public interface Listener {
        void onReceipt(VerifiedReceipt receipt, String correlationId);

        /** A record that is not a receipt Proofline signed: bad signature, unknown key, undecodable. */
        void onInvalid(InvalidReceiptException problem, String correlationId);

        /** A request that could not be verified (only when dead letters are followed). */
        default void onDeadLetter(String errorDocument, String correlationId) {}
    }

    private final AvroSerde<Receipt> receipts;
    private final ReceiptChecker checker;
    private final Listener listener;
    private final CorrelatedReplies reader;

    /**
     * Starts following. With {@code fromBeginning} false, only receipts published after this returns
     * are delivered (the consumer has joined and fixed its positions by then).
     *
     * @param kafka           Kafka client properties: bootstrap servers and any security settings
     * @param deadLetterTopic also follow this topic's dead letters, or {@code null}
     * @throws ProoflineException {@code unreachable} when Kafka gives no partition of the topics
     *     within 30 s (no broker there, or no such topic)
     */
    public VerifiedReceiptStream(
            Map<String, Object> kafka,
            String receiptsTopic,
            String deadLetterTopic,
            SchemaRegistryClient registry,
            AgentCardKeys keys,
            boolean fromBeginning,
            Listener listener) {
        this(kafka, receiptsTopic, deadLetterTopic, registry, new ReceiptChecker(keys), fromBeginning, listener);
    }

    /**
     * The same, checking every receipt against keys the caller pinned ({@link
     * ProoflineClient.Builder#trustedKeys}) and never against an agent-card's.
     */
    public VerifiedReceiptStream(
            Map<String, Object> kafka,
            String receiptsTopic,
            String deadLetterTopic,
            SchemaRegistryClient registry,
            TrustedKeys pinnedKeys,
            boolean fromBeginning,
            Listener listener) {
        this(
                kafka,
                receiptsTopic,
                deadLetterTopic,
                registry,
                new ReceiptChecker(java.util.Objects.requireNonNull(pinnedKeys, "pinnedKeys")),
                fromBeginning,
                listener);
    }

    private VerifiedReceiptStream(
            Map<String, Object> kafka,
            String receiptsTopic,
            String deadLetterTopic,
            SchemaRegistryClient registry,
            ReceiptChecker checker,
            boolean fromBeginning,
            Listener listener) {
        this.receipts = new AvroSerde<>(registry, Receipt.getClassSchema());
        this.checker = checker;
        this.listener = listener;
        Topics topics = Topics.defaults()
                .withReceipts(receiptsTopic)
                .withDeadLetter(deadLetterTopic == null ? Topics.DEFAULT_DEAD_LETTER : deadLetterTopic);
        try {
            this.reader = new CorrelatedReplies(
                    CorrelatedReplies.consumer(kafka, fromBeginning),
                    topics,
                    deadLetterTopic != null,
                    this::deliver,
                    "proofline-receipts",
                    ProoflineClient.DEFAULT_CONNECT_TIMEOUT);
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw ProoflineClient.unreachable(e);
        }
    }

    private void deliver(CorrelatedReplies.Reply record) {
        if (!record.isReceipt()) {
            listener.onDeadLetter(record.text(), record.correlationId());
            return;
        }
        String signedJson;
        try {
            signedJson = receipts.deserialize(record.value()).getSignedJson();
        } catch (RuntimeException e) {
            listener.onInvalid(
                    new InvalidReceiptException("not a receipt record: " + e.getMessage(), null),
                    record.correlationId());
            return;
        }
        VerifiedReceipt verified;
        try {
            verified = checker.check(signedJson);
        } catch (InvalidReceiptException e) {
            listener.onInvalid(e, record.correlationId());
            return;
        } catch (RuntimeException e) {
            // The keys could not be read (the agent-card unreachable): not shown as valid, not dropped.
            listener.onInvalid(
                    new InvalidReceiptException("could not be checked: " + e.getMessage(), signedJson),
                    record.correlationId());
            return;
        }
        listener.onReceipt(verified, record.correlationId());
    }

    @Override
    public void close() throws InterruptedException {
        reader.close();
    }
}
