package dev.proofline.access;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A payment is served at most once, whichever instances it reaches and however fast: each claim
 * is appended to a one-partition topic, and the first claim of a payment in that log wins. An
 * instance waits until its reader has passed its own claim, so every instance agrees on the
 * winner without any lock. The topic is never compacted (compaction would keep the last claim, not
 * the first) and keeps a day, far longer than a payment authorization is valid.
 */
public final class PaymentClaims implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PaymentClaims.class);

    private final String topic;
    private final KafkaProducer<String, String> producer;
    private final KafkaConsumer<String, String> consumer;
    private final Thread reader;
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    /** payment → the claim that came first. */
    private final Map<String, String> first = new ConcurrentHashMap<>();
    /** When each payment was first claimed: entries older than the topic keeps are dropped. */
    private final Map<String, Long> claimedAt = new ConcurrentHashMap<>();

    private final AtomicLong readPast = new AtomicLong(-1);
    private volatile boolean closed;

    private PaymentClaims(String topic, Map<String, Object> client) {
        this.topic = topic;
        Map<String, Object> producerConfig = new HashMap<>(client);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerConfig.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5000); // a paying caller never waits a minute
        this.producer = new KafkaProducer<>(producerConfig, new StringSerializer(), new StringSerializer());
        Map<String, Object> consumerConfig = new HashMap<>(client);
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(), new StringDeserializer());
        this.reader = new Thread(this::read, "proofline-payment-claims");
        this.reader.setDaemon(true);
    }

    public static PaymentClaims open(
            Map<String, Object> client,
            String topic,
            Optional<Short> replicationFactor,
            Map<String, String> topicConfigs) {
        Map<String, String> configs = new HashMap<>(topicConfigs);
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE);
        configs.put(
                TopicConfig.RETENTION_MS_CONFIG,
                Long.toString(Duration.ofDays(1).toMillis()));
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(1), replicationFactor).configs(configs)))
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
        PaymentClaims claims = new PaymentClaims(topic, client);
        claims.reader.start();
        try {
            if (!claims.caughtUp.await(60, TimeUnit.SECONDS)) {
                claims.close();
                throw new IllegalStateException("the payment claims topic " + topic + " could not be read in 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            claims.close();
            throw new IllegalStateException(e);
        }
        return claims;
    }

    /** Whether a payment was claimed already, as far as this instance has read. */
    public boolean claimed(String payment) {
        return first.containsKey(payment);
    }

    /**
     * Claims a payment (identified by a digest of it, never the payment itself).
     *
     * @return true when this claim is the first in the log: serve it; false when the payment was
     *     already claimed, here or on another instance
     */
    public boolean claim(String payment, Duration timeout) throws InterruptedException {
        String mine = UUID.randomUUID().toString();
        RecordMetadata written;
        try {
            written = producer.send(new ProducerRecord<>(topic, payment, mine))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException
                | java.util.concurrent.TimeoutException
                | org.apache.kafka.common.KafkaException e) {
            throw new IllegalStateException(
                    "the claim could not be written: " + e.getClass().getSimpleName(), e);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (readPast.get() < written.offset()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the claim was written but not read back in time");
            }
            Thread.sleep(2);
        }
        return mine.equals(first.get(payment));
    }

    private void read() {
        TopicPartition partition = new TopicPartition(topic, 0);
        try {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            long prunedAt = System.currentTimeMillis();
            while (!closed) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(50))) {
                    if (record.key() != null && record.value() != null) {
                        if (first.putIfAbsent(record.key(), record.value()) == null) {
                            claimedAt.put(record.key(), record.timestamp());
                        }
                    }
                    readPast.set(record.offset());
                }
                if (System.currentTimeMillis() - prunedAt > 60_000) {
                    // A payment authorization is valid for minutes; the topic keeps a day, and so does this.
                    prunedAt = System.currentTimeMillis();
                    long horizon = prunedAt - Duration.ofDays(1).toMillis();
                    claimedAt.entrySet().removeIf(e -> {
                        boolean old = e.getValue() < horizon;
                        if (old) {
                            first.remove(e.getKey());
                        }
                        return old;
                    });
                }
                if (caughtUp.getCount() > 0 && consumer.position(partition) >= end) {
                    caughtUp.countDown();
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.error("the payment claims topic {} can no longer be read: {}", topic, e.toString());
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
