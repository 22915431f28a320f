package dev.proofline.access;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
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

    private final String topic;
    private final SignedRecords signed;
    private final KafkaProducer<String, String> producer;
    private final KafkaConsumer<String, String> consumer;
    private final Thread reader;
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private final Map<String, CallerRecord> byName = new ConcurrentHashMap<>();
    private final Map<String, CallerRecord> byTokenHash = new ConcurrentHashMap<>();
    private final AtomicLong forged = new AtomicLong();
    private final java.util.Set<String> revokedTokens = ConcurrentHashMap.newKeySet();
    private volatile DeploymentFingerprints fingerprints;
    private volatile boolean fingerprintsAuthentic;
    private volatile boolean closed;

    private CallerRegistry(String topic, SignedRecords signed, Map<String, Object> client) {
        this.topic = topic;
        this.signed = signed;
        Map<String, Object> producerConfig = new HashMap<>(client);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        this.producer = new KafkaProducer<>(producerConfig, new StringSerializer(), new StringSerializer());
        Map<String, Object> consumerConfig = new HashMap<>(client);
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(), new StringDeserializer());
        this.reader = new Thread(this::read, "proofline-callers");
        this.reader.setDaemon(true);
    }

    /**
     * Creates the topic when missing, replays it and keeps reading.
     *
     * @param client bootstrap servers and any client overrides
     */
    public static CallerRegistry open(
            Map<String, Object> client,
            String topic,
            dev.proofline.attestor.DeploymentSecret secret,
            Optional<Short> replicationFactor,
            Map<String, String> topicConfigs) {
        createTopic(client, topic, replicationFactor, topicConfigs);
        CallerRegistry registry = new CallerRegistry(topic, new SignedRecords(secret), client);
        registry.reader.start();
        try {
            if (!registry.caughtUp.await(60, TimeUnit.SECONDS)) {
                registry.close();
                throw new IllegalStateException("the callers topic " + topic + " could not be read within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            registry.close();
            throw new IllegalStateException("interrupted while reading " + topic, e);
        }
        return registry;
    }

    /** The active key with this token, if any; a revoked or unknown token finds nothing. */
    @Override
    public Optional<CallerRecord> byToken(String token) {
        return Optional.ofNullable(byTokenHash.get(CallerTokens.hash(token))).filter(CallerRecord::active);
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

    /** Writes a key (new, changed or revoked), waits for the cluster to take it, and applies it here. */
    public void put(CallerRecord record) {
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

    private void write(String key, String value) {
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, key, value);
        signed.sign(record.headers(), key, value);
        try {
            producer.send(record).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing to " + topic, e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("could not write to " + topic + ": " + e, e);
        }
    }

    private void read() {
        TopicPartition partition = new TopicPartition(topic, 0);
        try {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            while (!closed) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    receive(record);
                }
                if (caughtUp.getCount() > 0 && consumer.position(partition) >= end) {
                    caughtUp.countDown();
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.error("the callers topic {} can no longer be read: {}", topic, e.toString());
            }
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
                LOG.warn("ignored an unreadable record at {}-0@{}: {}", topic, record.offset(), e.getMessage());
            }
            return;
        }
        if (!authentic) {
            forged.incrementAndGet();
            LOG.warn(
                    "ignored a record at {}-0@{} whose HMAC does not verify (written without this deployment's secret)",
                    topic,
                    record.offset());
            return;
        }
        try {
            apply(CallerRecord.fromJson(record.value()));
        } catch (RuntimeException e) {
            LOG.warn("ignored an unreadable record at {}-0@{}: {}", topic, record.offset(), e.getMessage());
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

    private static void createTopic(
            Map<String, Object> client,
            String topic,
            Optional<Short> replicationFactor,
            Map<String, String> topicConfigs) {
        Map<String, String> configs = new HashMap<>(topicConfigs);
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
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
