package dev.proofline.access;

import dev.proofline.attestor.DeploymentSecret;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many free verifications each caller used today (UTC), counted across every instance and
 * restart. Each instance counts its own admissions exactly (an atomic reserve, refunded when the
 * request ends in an error) and publishes its running count per caller and day to a compacted topic
 * that every instance reads; a caller's use is the sum over instances. An instance restarted with
 * the same data dir (the same instance id) continues its own count.
 *
 * <p>Overshoot is bounded: another instance's admissions reach this one within one record's trip
 * through Kafka (milliseconds), so a caller hammering several instances at once can exceed its
 * allowance by at most what the other instances admit in that time; on one instance, never.
 */
public final class AllowanceLedger implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AllowanceLedger.class);

    /** A reservation of one free verification, to be kept or refunded. */
    public record Reservation(String caller, LocalDate day) {}

    /** Where a caller stands today. */
    public record Standing(long limit, long used, LocalDate day) {
        public long remaining() {
            return Math.max(0, limit - used);
        }
    }

    private final String instanceId;
    private final Clock clock;
    private final SignedRecords signed;
    /** day|caller → instance → that instance's count. */
    private final Map<String, Map<String, Long>> counts = new ConcurrentHashMap<>();

    private volatile OnePartitionTopic log;
    private long prunedAt;

    private AllowanceLedger(String instanceId, Clock clock, SignedRecords signed) {
        this.instanceId = instanceId;
        this.clock = clock;
        this.signed = signed;
    }

    /**
     * Creates the topic when missing (compacted, and deleted after three days: only today counts),
     * replays it and keeps reading.
     */
    public static AllowanceLedger open(
            Map<String, Object> client,
            String topic,
            String instanceId,
            DeploymentSecret secret,
            Clock clock,
            Optional<Short> replicationFactor,
            Map<String, String> topicConfigs) {
        Map<String, String> configs = new HashMap<>(topicConfigs);
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, "compact,delete");
        configs.put(
                TopicConfig.RETENTION_MS_CONFIG,
                Long.toString(Duration.ofDays(3).toMillis()));
        AllowanceLedger ledger = new AllowanceLedger(instanceId, clock, new SignedRecords(secret, "allowance"));
        ledger.log = OnePartitionTopic.open(
                client,
                topic,
                replicationFactor,
                configs,
                // A verification must never wait on the ledger: with Kafka away, this instance's own
                // count stays exact in memory and the others learn it when a later count gets through.
                Map.of(ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.MAX_BLOCK_MS_CONFIG, 1000),
                Duration.ofMillis(100),
                ledger::receive,
                ledger::pruneEveryMinute);
        return ledger;
    }

    public LocalDate today() {
        return LocalDate.now(clock.withZone(ZoneOffset.UTC));
    }

    public Standing standing(String caller, long limit) {
        LocalDate day = today();
        return new Standing(limit, used(key(day, caller)), day);
    }

    /** Takes one free verification if any is left today; empty when the allowance is used up. */
    public Optional<Reservation> reserve(String caller, long limit) {
        LocalDate day = today();
        String key = key(day, caller);
        synchronized (this) {
            if (used(key) >= limit) {
                return Optional.empty();
            }
            record(key, mine(key) + 1);
        }
        return Optional.of(new Reservation(caller, day));
    }

    /** Gives a reservation back: the request it was for ended in an error, which is never charged. */
    public void refund(Reservation reservation) {
        String key = key(reservation.day(), reservation.caller());
        synchronized (this) {
            record(key, Math.max(0, mine(key) - 1));
        }
    }

    private long mine(String key) {
        return counts.getOrDefault(key, Map.of()).getOrDefault(instanceId, 0L);
    }

    private long used(String key) {
        return counts.getOrDefault(key, Map.of()).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    /**
     * Keeps this instance's new count and sends it for the others, under the ledger's lock so counts
     * leave in order (one partition, an idempotent producer). Sending only appends to the producer's
     * buffer; with Kafka away it gives up after {@code max.block.ms} (1 s), and the count stays exact here.
     */
    private void record(String key, long count) {
        counts.computeIfAbsent(key, k -> new ConcurrentHashMap<>()).put(instanceId, count);
        String recordKey = key + "|" + instanceId;
        String value = Long.toString(count);
        ProducerRecord<String, String> record = new ProducerRecord<>(log.topic(), recordKey, value);
        signed.sign(record.headers(), recordKey, value);
        try {
            log.producer().send(record, (metadata, error) -> {
                if (error != null) {
                    LOG.warn(
                            "an allowance count was not stored: {}",
                            error.getClass().getSimpleName());
                }
            });
        } catch (RuntimeException e) { // no metadata within max.block.ms: Kafka is away
            LOG.warn("an allowance count was not stored: {}", e.getClass().getSimpleName());
        }
    }

    /** Only today and yesterday matter: older counts are dropped once a minute, on the reader thread. */
    private void pruneEveryMinute() {
        if (System.currentTimeMillis() - prunedAt > 60_000) {
            prunedAt = System.currentTimeMillis();
            String yesterday = today().minusDays(1).toString();
            counts.keySet().removeIf(key -> key.substring(0, key.indexOf('|')).compareTo(yesterday) < 0);
        }
    }

    /**
     * Other instances' counts as they come; this instance's own only while replaying (afterwards its
     * in-memory count is ahead of anything it reads back).
     */
    private void receive(ConsumerRecord<String, String> record) {
        boolean replaying = log == null || !log.caughtUp();
        if (record.key() == null
                || record.value() == null
                || !signed.verifies(record.headers(), record.key(), record.value())) {
            return;
        }
        int cut = record.key().lastIndexOf('|');
        if (cut < 0) {
            return;
        }
        String key = record.key().substring(0, cut);
        String instance = record.key().substring(cut + 1);
        if (instance.equals(instanceId) && !replaying) {
            return;
        }
        try {
            counts.computeIfAbsent(key, k -> new ConcurrentHashMap<>()).put(instance, Long.parseLong(record.value()));
        } catch (NumberFormatException e) {
            // not a count: ignored
        }
    }

    private static String key(LocalDate day, String caller) {
        return day + "|" + caller;
    }

    @Override
    public void close() {
        log.close();
    }
}
