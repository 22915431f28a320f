package dev.proofline.access;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A payment is served at most once, whichever instances it reaches and however fast: each claim
 * is appended to a one-partition topic, and the first claim of a payment in that log wins. An
 * instance waits until its reader has passed its own claim, so every instance agrees on the
 * winner without any lock. The topic is never compacted (compaction would keep the last claim, not
 * the first) and keeps a day, far longer than a payment authorization is valid. A claim whose
 * request was refused, or never published, is released with a record of its own, so the payer
 * may send the same payment again.
 */
public final class PaymentClaims implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PaymentClaims.class);

    /** payment → the claim that came first. */
    private final Map<String, String> first = new ConcurrentHashMap<>();
    /** When each payment was first claimed: entries older than the topic keeps are dropped. */
    private final Map<String, Long> claimedAt = new ConcurrentHashMap<>();

    private final AtomicLong readPast = new AtomicLong(-1);
    private volatile OnePartitionTopic log;
    private long prunedAt = System.currentTimeMillis();

    private PaymentClaims() {}

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
        PaymentClaims claims = new PaymentClaims();
        claims.log = OnePartitionTopic.open(
                client,
                topic,
                replicationFactor,
                configs,
                Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5000), // a paying caller never waits a minute
                Duration.ofMillis(50),
                claims::receive,
                claims::pruneEveryMinute);
        return claims;
    }

    /** Whether a payment was claimed already, as far as this instance has read. */
    public boolean claimed(String payment) {
        return first.containsKey(payment);
    }

    /**
     * Claims a payment (identified by a digest of it, never the payment itself).
     *
     * @return this claim when it is the first in the log: serve it; empty when the payment was
     *     already claimed, here or on another instance
     */
    public Optional<Claim> claim(String payment, Duration timeout) throws InterruptedException {
        String mine = UUID.randomUUID().toString();
        awaitReadBack(write(payment, mine, timeout), timeout);
        return mine.equals(first.get(payment)) ? Optional.of(new Claim(payment, mine)) : Optional.empty();
    }

    /** A payment this instance claimed first. */
    public final class Claim {
        private final String payment;
        private final String id;

        private Claim(String payment, String id) {
            this.payment = payment;
            this.id = id;
        }

        /**
         * Gives the payment back: it was not settled and nothing was served for it (the request was
         * refused, or never published), so the payer may send it again. Every instance reads the
         * release in the same place of the log, after this claim and before any later one, so they
         * still agree on which claim is first. Returns once this instance has read it.
         */
        public void release(Duration timeout) throws InterruptedException {
            awaitReadBack(write(payment, RELEASED + id, timeout), timeout);
        }
    }

    private static final String RELEASED = "released:";

    private long write(String payment, String value, Duration timeout) throws InterruptedException {
        try {
            return log.producer()
                    .send(new ProducerRecord<>(log.topic(), payment, value))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .offset();
        } catch (ExecutionException
                | java.util.concurrent.TimeoutException
                | org.apache.kafka.common.KafkaException e) {
            throw new IllegalStateException(
                    "the claim could not be written: " + e.getClass().getSimpleName(), e);
        }
    }

    private void awaitReadBack(long offset, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (readPast.get() < offset) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the claim was written but not read back in time");
            }
            Thread.sleep(2);
        }
    }

    private void receive(ConsumerRecord<String, String> record) {
        String payment = record.key();
        String value = record.value();
        if (payment != null && value != null) {
            if (value.startsWith(RELEASED)) {
                // Only the first claim's own release counts: a stale one cannot free a later claim.
                if (first.remove(payment, value.substring(RELEASED.length()))) {
                    claimedAt.remove(payment);
                }
            } else if (first.putIfAbsent(payment, value) == null) {
                claimedAt.put(payment, record.timestamp());
            }
        }
        readPast.set(record.offset());
    }

    /** A payment authorization is valid for minutes; the topic keeps a day, and so does this. */
    private void pruneEveryMinute() {
        if (System.currentTimeMillis() - prunedAt > 60_000) {
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
    }

    @Override
    public void close() {
        log.close();
    }
}
