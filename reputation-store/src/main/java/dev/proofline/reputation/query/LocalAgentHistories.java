package dev.proofline.reputation.query;

import dev.proofline.reputation.AgentHistory;
import dev.proofline.reputation.AgentStanding;
import dev.proofline.reputation.DailyCounts;
import dev.proofline.reputation.ReputationTopology;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/** Interactive queries against this instance's own {@code agent-history} store. */
final class LocalAgentHistories implements AgentHistories {
    private final Instances instances;

    LocalAgentHistories(Instances instances) {
        this.instances = instances;
    }

    @Override
    public Optional<AgentHistory> find(String agentId) {
        instances.requireRunning();
        return find(agentId, instances.partitionOf(ReputationTopology.STORE, agentId));
    }

    private Optional<AgentHistory> find(String agentId, int partition) {
        ReadOnlyKeyValueStore<String, AgentHistory> store = instances.localStore(
                ReputationTopology.STORE, QueryableStoreTypes.<String, AgentHistory>keyValueStore(), partition);
        return Optional.ofNullable(store.get(agentId));
    }

    @Override
    public Optional<AgentStanding> standing(String agentId) {
        instances.requireRunning();
        // Both stores are fed by the receipts topic, so one partition holds the agent in each.
        int partition = instances.partitionOf(ReputationTopology.STORE, agentId);
        Optional<AgentHistory> history = find(agentId, partition);
        if (history.isEmpty()) {
            return Optional.empty();
        }
        ReadOnlyWindowStore<String, DailyCounts> daily = instances.localStore(
                ReputationTopology.DAILY, QueryableStoreTypes.<String, DailyCounts>windowStore(), partition);
        List<AgentStanding.Day> days = new ArrayList<>();
        Instant now = Instant.now();
        try (WindowStoreIterator<DailyCounts> windows =
                daily.fetch(agentId, now.minus(ReputationTopology.DAILY_RETENTION), now)) {
            windows.forEachRemaining(w -> days.add(new AgentStanding.Day(w.key, w.value.passed(), w.value.failed())));
        }
        return Optional.of(new AgentStanding(history.get(), days));
    }
}
