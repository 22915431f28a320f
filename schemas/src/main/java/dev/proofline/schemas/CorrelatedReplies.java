package dev.proofline.schemas;

import dev.proofline.contract.Headers;
import dev.proofline.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reply half of request-reply over Kafka ({@code docs/kafka.md}), shared by the server's front
 * door and the client SDK: one consumer reads every committed receipt (and, if asked, every dead
 * letter) and completes whoever waits on the record's correlation id. A caller that stops waiting
 * loses nothing: the record is on the topic regardless. A listener may also see every record read
 * (the dashboard's live feed, a downstream agent following receipts).
 *
 * <p>Records are handed over as read (for receipts: Avro in the Confluent wire format), decoded only
 * by whoever needs them, so the reader thread does no more work than it must.
 */
public final class CorrelatedReplies implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CorrelatedReplies.class);

    /**
     * A receipt or dead letter as read; {@code key} is the record key (a receipt's agent or task id),
     * maybe null; {@code partition} and {@code offset} say where it is in its topic.
     */
    public record Reply(boolean isReceipt, String correlationId, String key, byte[] value, int partition, long offset) {
        /** The value as text: a dead letter's error document. */
        public String text() {
            return new String(value, StandardCharsets.UTF_8);
        }
    }

    private final org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer;
    private final String receiptsTopic;
    private final Consumer<Reply> everyRecord;
    private final Map<String, CompletableFuture<Reply>> waiting = new ConcurrentHashMap<>();
    private final List<ConsumerRecord<byte[], byte[]>> early = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * Subscribes, waits until partitions are assigned and positions fixed, then starts reading on
     * its own thread: a reply published after this returns is never missed, even from "latest".
     *
     * @param consumer    a consumer of bytes, not yet subscribed; closed with this
     * @param topics      the receipts topic is always read; the dead-letter topic if {@code deadLetters}
     * @param everyRecord sees every record read, on the reader thread, before any waiting caller
     */
    public CorrelatedReplies(
            org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer,
            Topics topics,
            boolean deadLetters,
            Consumer<Reply> everyRecord,
            String threadName) {
        this(consumer, topics, deadLetters, everyRecord, threadName, null);
    }

    /**
     * The same, giving up after {@code assignedWithin} (null: waiting as long as it takes): a client
     * pointed at no broker, or at one without the topics, would otherwise wait for ever, in silence.
     *
     * @throws org.apache.kafka.common.errors.TimeoutException when no partition was assigned in time;
     *     the consumer is closed
     */
    public CorrelatedReplies(
            org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer,
            Topics topics,
            boolean deadLetters,
            Consumer<Reply> everyRecord,
            String threadName,
            Duration assignedWithin) {
        this.consumer = consumer;
        this.receiptsTopic = topics.receipts();
        this.everyRecord = everyRecord;
        List<String> read = deadLetters ? List.of(topics.receipts(), topics.deadLetter()) : List.of(topics.receipts());
        try {
            consumer.subscribe(read);
            long deadline = assignedWithin == null ? 0 : System.nanoTime() + assignedWithin.toNanos();
            // The polls that wait for partitions may already return records (from the beginning, they
            // will): keep them for the reader thread rather than drop them.
            while (consumer.assignment().isEmpty()) {
                if (assignedWithin != null && System.nanoTime() - deadline > 0) {
                    throw new org.apache.kafka.common.errors.TimeoutException("could not read "
                            + String.join(" and ", read) + " within " + assignedWithin.toSeconds()
                            + " s: is Kafka reachable, and do the topics exist?");
                }
                consumer.poll(Duration.ofMillis(100)).forEach(early::add);
            }
            consumer.assignment().forEach(consumer::position);
        } catch (RuntimeException e) {
            consumer.close(Duration.ZERO); // this owns it, and no reader thread will
            throw e;
        }
        this.thread = new Thread(this::run, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * A Kafka consumer for {@link #CorrelatedReplies}: its own consumer group (every reader sees
     * every record), committed records only, from the end or from the beginning.
     */
    public static KafkaConsumer<byte[], byte[]> consumer(Map<String, Object> kafka, boolean fromBeginning) {
        Map<String, Object> config = new HashMap<>(kafka);
        config.putIfAbsent(ConsumerConfig.GROUP_ID_CONFIG, "proofline-replies-" + UUID.randomUUID());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, fromBeginning ? "earliest" : "latest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Registers interest before the request is published; {@link #forget} it if you stop waiting. */
    public CompletableFuture<Reply> expect(String correlationId) {
        return waiting.computeIfAbsent(correlationId, id -> new CompletableFuture<>());
    }

    public void forget(String correlationId) {
        waiting.remove(correlationId);
    }

    /** How many callers are waiting now. */
    public int waitingCount() {
        return waiting.size();
    }

    /**
     * Reads until closed. A poll that fails (the broker refusing this reader, a topic deleted and
     * made again) is tried again every second rather than ending the thread: an ended reader would
     * leave every caller, now and later, waiting out its timeout with nothing said.
     */
    private void run() {
        try {
            early.forEach(this::deliver);
            early.clear();
            long failedSince = 0;
            while (running) {
                try {
                    consumer.poll(Duration.ofMillis(200)).forEach(this::deliver);
                    if (failedSince != 0) {
                        LOG.info(
                                "replies are read again, after {} s",
                                (System.nanoTime() - failedSince) / 1_000_000_000L);
                        failedSince = 0;
                    }
                } catch (WakeupException e) {
                    throw e;
                } catch (RuntimeException e) {
                    if (failedSince == 0) {
                        failedSince = System.nanoTime();
                        LOG.warn("replies cannot be read ({}): trying again every second", e.toString());
                    }
                    Thread.sleep(1000);
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            consumer.close();
        }
    }

    private void deliver(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            return; // neither a receipt nor a dead letter: nothing Proofline wrote
        }
        Header header = record.headers().lastHeader(Headers.CORRELATION_ID);
        String correlationId =
                header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        Reply reply = new Reply(
                record.topic().equals(receiptsTopic),
                correlationId,
                key,
                record.value(),
                record.partition(),
                record.offset());
        try {
            everyRecord.accept(reply);
        } catch (RuntimeException e) {
            // One listener's fault must not stop every caller's replies.
            LOG.warn(
                    "a reply listener failed on {}-{}@{}: {}",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    e.toString());
        }
        CompletableFuture<Reply> caller = correlationId == null ? null : waiting.remove(correlationId);
        if (caller != null) {
            caller.complete(reply);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(5000);
    }
}
