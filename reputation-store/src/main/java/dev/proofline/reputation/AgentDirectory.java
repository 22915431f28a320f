package dev.proofline.reputation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import tools.jackson.databind.JsonNode;

/**
 * Every agent, from any instance: each instance holds the histories of its own partitions, so the
 * leaderboard asks every instance Streams' metadata names (this one from its store, the others
 * over an internal route) for its best agents and merges them. An instance that cannot answer
 * makes the answer {@code complete: false} rather than failing it.
 */
public final class AgentDirectory {
    /** The internal route an instance answers with its own best agents; never forwarded again. */
    public static final String INTERNAL_PATH = "/internal/agents";

    /** The merged leaderboard and whether every instance contributed to it. */
    public record Leaderboard(List<AgentSummary> agents, long agentCount, int instances, boolean complete) {
    }

    /** One instance's part: its best {@code limit} agents and how many it holds in all. */
    public record LocalPart(List<AgentSummary> best, long agentCount) {
    }

    private final KafkaStreams streams;
    private final HostInfo self;
    private final InstanceClient instances = new InstanceClient();

    public AgentDirectory(KafkaStreams streams, HostInfo self) {
        this.streams = streams;
        this.self = self;
    }

    public Leaderboard leaderboard(int limit) {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            throw new AgentHistories.NotQueryableException("the pipeline is " + streams.state());
        }
        Map<String, AgentSummary> merged = new HashMap<>();
        long count = 0;
        int instances = 0;
        boolean complete = true;
        for (StreamsMetadata instance : streams.metadataForAllStreamsClients()) {
            if (!instance.stateStoreNames().contains(ReputationTopology.STORE)) {
                continue;
            }
            instances++;
            try {
                LocalPart part = self.equals(instance.hostInfo()) ? local(limit) : ask(instance.hostInfo(), limit);
                part.best().forEach(s -> merged.merge(s.agentId(), s, (a, b) -> a.total() >= b.total() ? a : b));
                count += part.agentCount();
            } catch (AgentHistories.NotQueryableException e) {
                complete = false;
            }
        }
        List<AgentSummary> best = new ArrayList<>(merged.values());
        best.sort(AgentSummary.BEST_FIRST);
        return new Leaderboard(List.copyOf(best.subList(0, Math.min(limit, best.size()))), count, instances, complete);
    }

    /** This instance's own agents (the partitions it processes), best first. */
    public LocalPart local(int limit) {
        List<AgentSummary> all = new ArrayList<>();
        try {
            ReadOnlyKeyValueStore<String, AgentHistory> store = streams.store(StoreQueryParameters.fromNameAndType(
                    ReputationTopology.STORE, QueryableStoreTypes.<String, AgentHistory>keyValueStore()));
            try (KeyValueIterator<String, AgentHistory> it = store.all()) {
                it.forEachRemaining(kv -> all.add(AgentSummary.of(kv.value)));
            }
        } catch (InvalidStateStoreException e) {
            throw new AgentHistories.NotQueryableException(e.getMessage());
        }
        all.sort(AgentSummary.BEST_FIRST);
        return new LocalPart(List.copyOf(all.subList(0, Math.min(limit, all.size()))), all.size());
    }

    private LocalPart ask(HostInfo instance, int limit) {
        JsonNode body = instances.get(instance, INTERNAL_PATH + "?limit=" + limit)
                .orElseThrow(() -> new AgentHistories.NotQueryableException(instance + " has no agent directory"));
        List<AgentSummary> best = new ArrayList<>();
        body.get("agents").forEach(row -> best.add(AgentSummary.fromJson(row)));
        return new LocalPart(best, body.get("agent_count").asLong());
    }
}
