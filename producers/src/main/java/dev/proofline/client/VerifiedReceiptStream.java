package dev.proofline.client;

import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.Headers;
import dev.proofline.schemas.SchemaRegistryClient;
import dev.proofline.schemas.avro.Receipt;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

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
        default void onDeadLetter(String errorDocument, String correlationId) {
        }
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final AvroSerde<Receipt> receipts;
    private final ReceiptChecker checker;
    private final String receiptsTopic;
    private final Listener listener;
    private final Thread thread;
    private final List<ConsumerRecord<byte[], byte[]>> early = new ArrayList<>();
    private volatile boolean running = true;

    /**
     * Starts following. With {@code fromBeginning} false, only receipts published after this returns
     * are delivered (the consumer has joined and fixed its positions by then).
     */
    public VerifiedReceiptStream(Map<String, Object> kafka, String receiptsTopic, String deadLetterTopic,
                                 SchemaRegistryClient registry, AgentCardKeys keys, boolean fromBeginning, Listener listener) {
        Map<String, Object> config = new HashMap<>(kafka);
        config.putIfAbsent(ConsumerConfig.GROUP_ID_CONFIG, "proofline-client-" + UUID.randomUUID());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, fromBeginning ? "earliest" : "latest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.receipts = new AvroSerde<>(registry, Receipt.getClassSchema());
        this.checker = new ReceiptChecker(keys);
        this.receiptsTopic = receiptsTopic;
        this.listener = listener;
        List<String> topics = new ArrayList<>(List.of(receiptsTopic));
        if (deadLetterTopic != null) {
            topics.add(deadLetterTopic);
        }
        consumer.subscribe(topics);
        // The polls that wait for partitions may already return records (from the beginning, they
        // will): keep them for the stream thread rather than drop them.
        while (consumer.assignment().isEmpty()) {
            consumer.poll(Duration.ofMillis(100)).forEach(early::add);
        }
        consumer.assignment().forEach(consumer::position);
        this.thread = new Thread(this::run, "proofline-receipts");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            early.forEach(this::deliver);
            early.clear();
            while (running) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    deliver(record);
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    private void deliver(ConsumerRecord<byte[], byte[]> record) {
        Header header = record.headers().lastHeader(Headers.CORRELATION_ID);
        String correlationId = header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
        if (!record.topic().equals(receiptsTopic)) {
            listener.onDeadLetter(new String(record.value(), StandardCharsets.UTF_8), correlationId);
            return;
        }
        String signedJson;
        try {
            signedJson = receipts.deserialize(record.value()).getSignedJson();
        } catch (RuntimeException e) {
            listener.onInvalid(new InvalidReceiptException("not a receipt record: " + e.getMessage(), null), correlationId);
            return;
        }
        try {
            listener.onReceipt(checker.check(signedJson), correlationId);
        } catch (InvalidReceiptException e) {
            listener.onInvalid(e, correlationId);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(5000);
    }
}
