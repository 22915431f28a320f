package dev.proofline.access;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every caller key of the deployment, read from its compacted callers topic (one partition) by
 * every instance, from the beginning and then continuously: any instance accepts any key, and a
 * revocation reaches every instance as fast as a record travels. Records whose HMAC does not verify
 * under the deployment's secret are ignored, logged and counted; only the token's hash is kept.
 */
public final class CallerRegistry implements CallerKeys, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CallerRegistry.class);
    /** The key a revocation is also kept under: never a caller's name, which cannot hold '/'. */
    static final String REVOKED_PREFIX = "revoked/";

    private final SignedRecords signed;
    private final Map<String, CallerRecord> byName = new ConcurrentHashMap<>();
    private final Map<String, CallerRecord> byTokenHash = new ConcurrentHashMap<>();
    private final AtomicLong forged = new AtomicLong();
    private final java.util.Set<String> revokedTokens = ConcurrentHashMap.newKeySet();
    private volatile DeploymentFingerprints fingerprints;
    private volatile boolean fingerprintsAuthentic;
    private volatile OnePartitionTopic log;

    private CallerRegistry(SignedRecords signed) {
        this.signed = signed;
    }

    /**
     * Creates the topic when missing (compacted), replays it and keeps reading.
     *
     * @param client bootstrap servers and any client overrides
     */
    public static CallerRegistry open(
            Map<String, Object> client,
            String topic,
            dev.proofline.attestor.DeploymentSecret secret,
            Optional<Short> replicationFactor,
            Map<String, String> topicConfigs) {
        Map<String, String> configs = new HashMap<>(topicConfigs);
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        CallerRegistry registry = new CallerRegistry(new SignedRecords(secret));
        registry.log = OnePartitionTopic.open(
                client,
                topic,
                replicationFactor,
                configs,
                Map.of(),
                Duration.ofMillis(200),
                registry::receive,
                () -> {});
        return registry;
    }

    /** The active key with this token, if any; a revoked or unknown token finds nothing. */
    @Override
    public Optional<CallerRecord> byToken(String token) {
        return Optional.ofNullable(byTokenHash.get(CallerTokens.hash(token))).filter(CallerRecord::active);
    }

    /** Whether this deployment ever issued this token: active now, or revoked (revocation is for ever). */
    public boolean issued(String token) {
        String hash = CallerTokens.hash(token);
        return byTokenHash.containsKey(hash) || revokedTokens.contains(hash);
    }

    public Optional<CallerRecord> named(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Every key ever made, revoked ones too, by name. */
    public List<CallerRecord> list() {
        List<CallerRecord> all = new ArrayList<>(byName.values());
        all.sort(Comparator.comparing(CallerRecord::name));
        return all;
    }

    public boolean hasActiveOperator() {
        return byName.values().stream().anyMatch(c -> c.active() && c.role() == CallerRole.OPERATOR);
    }

    /** Active keys that own this agent id; none means the id is open to anyone. */
    public List<CallerRecord> ownersOf(String agentId) {
        return byName.values().stream()
                .filter(c -> c.active() && c.agents().matches(agentId))
                .toList();
    }

    /** What became of {@link #add}. */
    public enum Added {
        /** The name was free and is this key's now. */
        ADDED,
        /** The name is taken (active or revoked): a name is issued once. */
        NAME_TAKEN,
        /** Another add of the same name ran at the same moment, and this one gave way: try again. */
        RACED
    }

    /**
     * Adds a key under a name no key has had, deciding "no key has had it" against the whole topic
     * as it is now, not as this instance last read it. Two adds of one name at once must not both
     * win (the second would replace the first's token), and compaction keeps a name's last record,
     * so the topic itself cannot say which came first. So each add of a name writes in a
     * transaction under an id made from the name: starting one fences any other add of that name
     * still open (its commit fails: {@link Added#RACED}), and only then is the topic read to its end
     * and the name checked.
     */
    public Added add(CallerRecord record) throws InterruptedException {
        org.apache.kafka.clients.producer.KafkaProducer<String, String> fenced =
                log.transactionalProducer(addTransactionId(log.topic(), record.name()));
        boolean open = false;
        try {
            fenced.initTransactions();
            log.catchUpToNow(Duration.ofSeconds(30));
            if (byName.containsKey(record.name())) {
                return Added.NAME_TAKEN;
            }
            fenced.beginTransaction();
            open = true;
            fenced.send(signedRecord(record.name(), record.toJson()));
            fenced.commitTransaction();
            open = false;
            awaitReadBack(record);
        } catch (org.apache.kafka.common.KafkaException e) {
            if (fencedByAnotherAdd(e)) {
                return Added.RACED;
            }
            throw new IllegalStateException("could not write to " + log.topic() + ": " + e, e);
        } finally {
            // An add left open holds every reader of the topic (revocations too) until it times out.
            if (open) {
                try {
                    fenced.abortTransaction();
                } catch (RuntimeException alreadyEnded) {
                    // fenced, or the broker is gone: the transaction times out on its own
                }
            }
            fenced.close(Duration.ofSeconds(5)); // a bare close() waits for ever when Kafka is gone
        }
        apply(record);
        return Added.ADDED;
    }

    /**
     * Waits until this registry's own reader has read the committed key back. A commit returns
     * before its markers are written, and until they are no reader sees the key, so a token printed
     * at once could be refused by every instance for a moment. Read back here, it is readable by all
     * (each still reads it on its next poll).
     */
    private void awaitReadBack(CallerRecord record) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!byTokenHash.containsKey(record.tokenSha256())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "the key was written to " + log.topic() + " but could not be read back within 30 s");
            }
            Thread.sleep(10);
        }
    }

    /** Whether {@code e} says another add of the same name took the transactional id over. */
    private static boolean fencedByAnotherAdd(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.apache.kafka.common.errors.ProducerFencedException
                    || t instanceof org.apache.kafka.common.errors.InvalidProducerEpochException
                    || t instanceof org.apache.kafka.common.errors.TransactionAbortableException) {
                return true;
            }
        }
        return false;
    }

    /** The transactional id every add of {@code name} to {@code topic} writes under. */
    static String addTransactionId(String topic, String name) {
        return "proofline-caller-add-"
                + CallerTokens.hash(topic + "\u0000" + name).substring(0, 32);
    }

    /** Writes a key (changed or revoked), waits for the cluster to take it, and applies it here. */
    public void put(CallerRecord record) {
        if (!record.active()) {
            // Compaction keeps only the last record of each name, so an old "active" record of this
            // key, written again, would outlive its revocation for every instance started after
            // that. Kept under a key of its own as well, the revocation is never replaced.
            write(REVOKED_PREFIX + record.tokenSha256(), record.toJson());
        }
        write(record.name(), record.toJson());
        apply(record);
    }

    public Optional<DeploymentFingerprints> fingerprints() {
        return Optional.ofNullable(fingerprints);
    }

    /** Whether the group's fingerprints were written with this deployment's secret. */
    public boolean fingerprintsAuthentic() {
        return fingerprintsAuthentic;
    }

    public void publish(DeploymentFingerprints mine) {
        write(DeploymentFingerprints.RECORD_KEY, mine.toJson());
        fingerprints = mine;
        fingerprintsAuthentic = true;
    }

    /** Records that failed their HMAC since start: someone wrote to the topic without the secret. */
    public long forgedCount() {
        return forged.get();
    }

    private ProducerRecord<String, String> signedRecord(String key, String value) {
        ProducerRecord<String, String> record = new ProducerRecord<>(log.topic(), key, value);
        signed.sign(record.headers(), key, value);
        return record;
    }

    private void write(String key, String value) {
        ProducerRecord<String, String> record = signedRecord(key, value);
        try {
            log.producer().send(record).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing to " + log.topic(), e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("could not write to " + log.topic() + ": " + e, e);
        }
    }

    private void receive(ConsumerRecord<String, String> record) {
        if (record.key() == null || record.value() == null) {
            return; // tombstones are never written; compaction may leave nothing else to do
        }
        boolean authentic = signed.verifies(record.headers(), record.key(), record.value());
        if (record.key().equals(DeploymentFingerprints.RECORD_KEY)) {
            // Kept even when it does not verify: a group record made with another secret is exactly
            // what tells an instance started with the wrong keys to stop.
            try {
                fingerprints = DeploymentFingerprints.fromJson(record.value());
                fingerprintsAuthentic = authentic;
            } catch (RuntimeException e) {
                LOG.warn(
                        "ignored an unreadable record at {}-0@{}: {}", record.topic(), record.offset(), e.getMessage());
            }
            return;
        }
        if (!authentic) {
            forged.incrementAndGet();
            LOG.warn(
                    "ignored a record at {}-0@{} whose HMAC does not verify (written without this deployment's secret)",
                    record.topic(),
                    record.offset());
            return;
        }
        try {
            CallerRecord caller = CallerRecord.fromJson(record.value());
            if (record.key().startsWith(REVOKED_PREFIX) && caller.active()) {
                LOG.warn("ignored a record at {}-0@{}: not a revocation", record.topic(), record.offset());
                return;
            }
            apply(caller);
        } catch (RuntimeException e) {
            LOG.warn("ignored an unreadable record at {}-0@{}: {}", record.topic(), record.offset(), e.getMessage());
        }
    }

    /**
     * Revocation is for ever: a token once revoked is never accepted again, even if an older record
     * that still says "active" is written to the topic again. The new entry goes in before the old
     * one leaves, so a key being rewritten is never briefly unknown.
     */
    private synchronized void apply(CallerRecord record) {
        if (record.active() && revokedTokens.contains(record.tokenSha256())) {
            LOG.warn("ignored a record that would bring back the revoked key '{}'", record.name());
            return;
        }
        if (!record.active()) {
            revokedTokens.add(record.tokenSha256());
        }
        CallerRecord before = byName.put(record.name(), record);
        byTokenHash.put(record.tokenSha256(), record);
        if (before != null && !before.tokenSha256().equals(record.tokenSha256())) {
            byTokenHash.remove(before.tokenSha256(), before);
        }
    }

    @Override
    public void close() {
        log.close();
    }
}
