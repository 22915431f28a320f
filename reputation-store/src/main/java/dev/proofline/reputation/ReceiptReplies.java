package dev.proofline.reputation;

import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.avro.Receipt;
import dev.proofline.schemas.Headers;
import dev.proofline.topology.ProoflineTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The reply half of request-reply over Kafka: one consumer per instance reads every committed
 * receipt and dead letter (its own consumer group, from the end) and completes the caller waiting
 * on the record's correlation id. A caller that stops waiting loses nothing: the receipt is on the
 * topic regardless. Listeners (the dashboard's live feed) see every receipt read.
 */
public final class ReceiptReplies implements AutoCloseable {
    /** What the pipeline made of a request: its signed receipt, or its dead letter's error document. */
    public record Reply(boolean receipt, String json) {
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final AvroSerde<Receipt> receipts;
    private final ProoflineTopics topics;
    private final Map<String, CompletableFuture<Reply>> waiting = new ConcurrentHashMap<>();
    private final List<Consumer<byte[]>> listeners = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    public ReceiptReplies(Map<String, Object> client, ProoflineTopics topics, AvroSerde<Receipt> receipts) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "proofline-replies-" + UUID.randomUUID());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.receipts = receipts;
        this.topics = topics;
        consumer.subscribe(List.of(topics.receipts(), topics.deadLetter()));
        // Join and fix positions before any request is accepted, so no reply can slip past "latest".
        while (consumer.assignment().isEmpty()) {
            consumer.poll(Duration.ofMillis(100));
        }
        consumer.assignment().forEach(consumer::position);
        this.thread = new Thread(this::run, "proofline-replies");
        thread.setDaemon(true);
        thread.start();
    }

    /** Registers interest before the request is published; complete or cancel it afterwards. */
    public CompletableFuture<Reply> expect(String correlationId) {
        return waiting.computeIfAbsent(correlationId, id -> new CompletableFuture<>());
    }

    public void forget(String correlationId) {
        waiting.remove(correlationId);
    }

    /**
     * Also hands every committed receipt to this listener (the live feed), on the reader's thread,
     * as the record's value: Avro in the Confluent wire format, decoded only if the listener needs it.
     */
    public void onEveryReceipt(Consumer<byte[]> listener) {
        listeners.add(listener);
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    boolean isReceipt = record.topic().equals(topics.receipts());
                    if (isReceipt && record.value() != null) {
                        listeners.forEach(listener -> listener.accept(record.value()));
                    }
                    Header header = record.headers().lastHeader(Headers.CORRELATION_ID);
                    if (header == null) {
                        continue;
                    }
                    CompletableFuture<Reply> caller = waiting.remove(new String(header.value(), StandardCharsets.UTF_8));
                    if (caller != null) {
                        caller.complete(isReceipt
                                ? new Reply(true, receipts.deserialize(record.value()).getSignedJson())
                                : new Reply(false, new String(record.value(), StandardCharsets.UTF_8)));
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(5000);
    }
}
