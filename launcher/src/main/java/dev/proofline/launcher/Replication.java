package dev.proofline.launcher;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * How the topics Proofline creates are replicated, decided once the cluster answers: what the
 * operator set, else three copies with two in sync for a write on a cluster of three brokers or
 * more (a broker can then fail without losing a committed receipt or stopping writes), one copy on
 * the embedded single broker, and the cluster's own defaults otherwise. The same decision covers
 * Proofline's topics, the registry's topic and the internal topics Kafka Streams creates.
 *
 * @param factor        empty: the broker's {@code default.replication.factor}
 * @param minInsync     empty: the broker's {@code min.insync.replicas}
 */
record Replication(Optional<Short> factor, Optional<Integer> minInsync) {
    static Replication decide(ProoflineSettings settings, int brokers) {
        Optional<Short> factor =
                settings.replicationFactor().or(() -> brokers >= 3 ? Optional.of((short) 3) : Optional.empty());
        Optional<Integer> minInsync = settings.minInsyncReplicas()
                .or(() -> factor.isPresent() && factor.get() >= 3 ? Optional.of(2) : Optional.empty());
        return new Replication(factor, minInsync);
    }

    /** Topic settings every created topic gets. */
    Map<String, String> topicConfigs() {
        Map<String, String> configs = new HashMap<>();
        minInsync.ifPresent(n -> configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(n)));
        return configs;
    }

    /** The same for Kafka Streams' changelog and repartition topics. */
    Map<String, Object> streamsConfigs() {
        Map<String, Object> configs = new HashMap<>();
        factor.ifPresent(n -> configs.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) n));
        minInsync.ifPresent(n -> configs.put(StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG), n));
        return configs;
    }

    @Override
    public String toString() {
        return factor.map(n -> n + " replicas").orElse("the broker's default replicas")
                + minInsync.map(n -> ", " + n + " in sync").orElse("");
    }
}
