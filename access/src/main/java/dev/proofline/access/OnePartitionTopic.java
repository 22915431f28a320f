package dev.proofline.access;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one shape the callers, allowance and payment-claims topics share: one partition, created when
 * missing, written by an idempotent producer, and read by every instance from the beginning and then
 * continuously on a thread of its own, which says when it has caught up with what was there at start,
 * or with what is there now. It reads committed records only: a write that must be decided against
 * what the topic holds (a caller's name, given once) is made in a transaction, and one fenced by a
 * rival is aborted, never read.
 */
final class OnePartitionTopic implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OnePartitionTopic.class);

    private final String topic;
    private final Map<String, Object> client;
    private final KafkaProducer<String, String> producer;
    private final KafkaConsumer<String, String> consumer;
    private final Thread reader;
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    /** The reader's position after its last poll: every record before it has been handed on. */
    private volatile long readTo;

    private volatile boolean closed;

    /**
     * @param producerConfigs settings of the producer beyond acks=all and idempotence
     * @param onRecord        each record read, on the reader thread
     * @param afterPoll       after each poll, on the reader thread (housekeeping)
     */
    private OnePartitionTopic(
            Map<String, Object> client,
            String topic,
            Map<String, Object> producerConfigs,
            Duration poll,
            Consumer<ConsumerRecord<String, String>> onRecord,
            Runnable afterPoll) {
        this.topic = topic;
        this.client = Map.copyOf(client);
        Map<String, Object> producerConfig = new HashMap<>(client);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerConfig.putAll(producerConfigs);
        Map<String, Object> consumerConfig = new HashMap<>(client);
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.remove(ConsumerConfig.GROUP_ID_CONFIG);
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        this.consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(), new StringDeserializer());
        try {
            this.producer = new KafkaProducer<>(producerConfig, new StringSerializer(), new StringSerializer());
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
        this.reader = new Thread(() -> read(poll, onRecord, afterPoll), "proofline-" + topic);
        this.reader.setDaemon(true);
    }

    /**
     * Creates the topic when missing, then replays it; returns once what was there at start is read.
     *
     * @throws IllegalStateException when the topic cannot be created or read within 60 s
     */
    static OnePartitionTopic open(
            Map<String, Object> client,
            String topic,
            Optional<Short> replicationFactor,
            Map<String, String> topicConfigs,
            Map<String, Object> producerConfigs,
            Duration poll,
            Consumer<ConsumerRecord<String, String>> onRecord,
            Runnable afterPoll) {
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(1), replicationFactor).configs(topicConfigs)))
                    .all()
                    .get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException(
                        "cannot create " + topic + ": " + e.getCause().getMessage(), e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        OnePartitionTopic log = new OnePartitionTopic(client, topic, producerConfigs, poll, onRecord, afterPoll);
        log.reader.start();
        try {
            if (!log.caughtUp.await(60, TimeUnit.SECONDS)) {
                log.close();
                throw new IllegalStateException("the topic " + topic + " could not be read within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.close();
            throw new IllegalStateException("interrupted while reading " + topic, e);
        }
        return log;
    }

    String topic() {
        return topic;
    }

    KafkaProducer<String, String> producer() {
        return producer;
    }

    /**
     * A producer of its own for one transactional write, under {@code transactionalId}: a second
     * producer started with the same id fences this one, aborting its open transaction. Short
     * transactions only: an open one holds back every reader of the topic until it ends or times out.
     */
    KafkaProducer<String, String> transactionalProducer(String transactionalId) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        // An add killed mid-transaction holds every reader until the broker aborts it: at most this
        // long, plus the broker's sweep for timed-out transactions (10 s by default).
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 5_000);
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    /**
     * Returns once everything committed to the topic by now has been read and handed on.
     *
     * @throws IllegalStateException when that takes longer than {@code timeout}
     */
    void catchUpToNow(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        TopicPartition partition = new TopicPartition(topic, 0);
        long end;
        try (Admin admin = Admin.create(client)) {
            end = admin.listOffsets(
                            Map.of(partition, org.apache.kafka.clients.admin.OffsetSpec.latest()),
                            new org.apache.kafka.clients.admin.ListOffsetsOptions(
                                    org.apache.kafka.common.IsolationLevel.READ_COMMITTED))
                    .partitionResult(partition)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .offset();
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the end of " + topic + " cannot be read now", e);
        }
        while (readTo < end) {
            if (closed || System.nanoTime() > deadline) {
                throw new IllegalStateException(topic + " was not read to its end in time");
            }
            Thread.sleep(20);
        }
    }

    /** Whether what was on the topic at start has been read (records after that are news). */
    boolean caughtUp() {
        return caughtUp.getCount() == 0;
    }

    private void read(Duration poll, Consumer<ConsumerRecord<String, String>> onRecord, Runnable afterPoll) {
        TopicPartition partition = new TopicPartition(topic, 0);
        try {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            while (!closed) {
                for (ConsumerRecord<String, String> record : consumer.poll(poll)) {
                    onRecord.accept(record);
                }
                readTo = consumer.position(partition);
                if (caughtUp.getCount() > 0 && readTo >= end) {
                    caughtUp.countDown();
                }
                afterPoll.run();
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.error("the topic {} can no longer be read: {}", topic, e.toString());
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
        try {
            reader.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.close(Duration.ofSeconds(2));
        producer.close(Duration.ofSeconds(5));
    }
}
