package dev.proofline.launcher;

import dev.proofline.contract.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Creates Proofline's topics at start when they are missing. Existing topics are left as they
 * are: partition counts are the operator's to change.
 */
final class TopicProvisioner {
    /** A topic's {@code max.message.bytes} unless someone changed it (the broker's {@code message.max.bytes}). */
    static final int KAFKA_DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;

    private TopicProvisioner() {}

    /** @return the names of the topics it created */
    static Set<String> ensure(
            Admin admin,
            Topics topics,
            int partitions,
            Replication replication,
            int maxRequestBytes,
            ProoflineSettings.TopicRetention retention,
            Optional<String> transparencyLog)
            throws ExecutionException, InterruptedException {
        Set<String> existing = admin.listTopics().names().get();
        // Requests up to the limit must reach the pipeline to be judged (an oversize one is
        // dead-lettered, not refused at the door), and a dead letter carries its original in a header.
        String inputMax = Integer.toString(2 * maxRequestBytes + 65536);
        String deadLetterMax = Integer.toString(deadLetterBytes(maxRequestBytes));
        // Retention is set, never left to the broker's default (7 days), which would silently delete
        // receipts and with them scores' history, the receipt index and every lookup built on them.
        Optional<Short> replicationFactor = replication.factor();
        Map<String, String> replicated = replication.topicConfigs();
        List<NewTopic> missing = new ArrayList<>();
        add(
                missing,
                existing,
                new NewTopic(topics.input(), Optional.of(partitions), replicationFactor)
                        .configs(with(
                                replicated,
                                TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                                inputMax,
                                TopicConfig.RETENTION_MS_CONFIG,
                                Long.toString(retention.inputMs()))));
        add(
                missing,
                existing,
                new NewTopic(topics.receipts(), Optional.of(partitions), replicationFactor)
                        .configs(with(
                                replicated,
                                // Set, not left to the broker's message.max.bytes, which may be smaller.
                                TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                                Integer.toString(KAFKA_DEFAULT_MAX_MESSAGE_BYTES),
                                TopicConfig.RETENTION_MS_CONFIG,
                                Long.toString(retention.receiptsMs()))));
        add(
                missing,
                existing,
                new NewTopic(topics.deadLetter(), Optional.of(partitions), replicationFactor)
                        .configs(with(
                                replicated,
                                TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                                deadLetterMax,
                                TopicConfig.RETENTION_MS_CONFIG,
                                Long.toString(retention.deadLetterMs()))));
        add(
                missing,
                existing,
                new NewTopic(topics.scores(), Optional.of(partitions), replicationFactor)
                        .configs(with(
                                replicated, TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
        // The published log: one partition (one order), compacted (a tile's key keeps its widest version),
        // kept for ever: the log never forgets an entry.
        transparencyLog.ifPresent(name -> add(
                missing,
                existing,
                new NewTopic(name, Optional.of(1), replicationFactor)
                        .configs(with(
                                replicated,
                                TopicConfig.CLEANUP_POLICY_CONFIG,
                                TopicConfig.CLEANUP_POLICY_COMPACT,
                                TopicConfig.RETENTION_MS_CONFIG,
                                "-1"))));
        if (!missing.isEmpty()) {
            admin.createTopics(missing).all().get();
        }
        return missing.stream().map(NewTopic::name).collect(java.util.stream.Collectors.toSet());
    }

    /** The largest dead letter: a request of twice the limit in a header, beside its error document. */
    static int deadLetterBytes(int maxRequestBytes) {
        return 5 * maxRequestBytes + 131072;
    }

    /**
     * The largest record {@code topic} takes now: its own {@code max.message.bytes}, or the broker's
     * default when it has none; empty when the cluster does not say. A topic created before
     * Proofline may take less than Proofline would have given it.
     */
    static java.util.OptionalInt maxMessageBytes(Admin admin, String topic) throws InterruptedException {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try {
            ConfigEntry entry = admin.describeConfigs(List.of(resource))
                    .all()
                    .get()
                    .get(resource)
                    .get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            return entry == null || entry.value() == null
                    ? java.util.OptionalInt.empty()
                    : java.util.OptionalInt.of(Integer.parseInt(entry.value()));
        } catch (ExecutionException | NumberFormatException e) {
            // Not allowed to describe it (ACLs), or not known to every broker yet: nothing is known.
            return java.util.OptionalInt.empty();
        }
    }

    private static Map<String, String> with(Map<String, String> base, String... keysAndValues) {
        Map<String, String> configs = new java.util.HashMap<>(base);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            configs.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return configs;
    }

    private static void add(List<NewTopic> missing, Set<String> existing, NewTopic topic) {
        if (!existing.contains(topic.name())) {
            missing.add(topic);
        }
    }
}
