package dev.proofline.reputation;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Finds an agent's history wherever it lives: Kafka Streams' metadata names the instance whose
 * store holds the key (each instance advertises its HTTP address as {@code application.server});
 * this instance answers from its own store, or asks the owner over HTTP. While the key has no
 * owner (a rebalance) the answer is {@link AgentHistories.NotQueryableException}.
 */
public final class RoutedAgentHistories implements AgentHistories {
    /** The internal route an owner answers; a forwarded query is never forwarded again. */
    public static final String INTERNAL_PATH = "/internal/agent-history/";

    private final KafkaStreams streams;
    private final HostInfo self;
    private final LocalAgentHistories local;
    private final InstanceClient instances = new InstanceClient();

    public RoutedAgentHistories(KafkaStreams streams, HostInfo self) {
        this.streams = streams;
        this.self = self;
        this.local = new LocalAgentHistories(streams);
    }

    /** What this instance's own store holds, for the internal route. */
    public Optional<AgentHistory> findLocally(String agentId) {
        return local.find(agentId);
    }

    @Override
    public Optional<AgentHistory> find(String agentId) {
        KeyQueryMetadata owner = streams.queryMetadataForKey(ReputationTopology.STORE, agentId, Serdes.String().serializer());
        if (owner == null || owner.activeHost() == null || HostInfo.unavailable().equals(owner.activeHost())) {
            throw new NotQueryableException("no instance owns the key yet");
        }
        if (self.equals(owner.activeHost())) {
            return local.find(agentId);
        }
        return ask(owner.activeHost(), agentId);
    }

    private Optional<AgentHistory> ask(HostInfo owner, String agentId) {
        return instances.get(owner, INTERNAL_PATH + URLEncoder.encode(agentId, StandardCharsets.UTF_8).replace("+", "%20"))
                .map(AgentHistorySerde::fromJson);
    }
}
