package dev.proofline.reputation.query;

import dev.proofline.reputation.AgentHistory;
import dev.proofline.reputation.ReputationTopology;
import java.util.Optional;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** Interactive queries against this instance's own {@code agent-history} store. */
final class LocalAgentHistories implements AgentHistories {
    private final Instances instances;

    LocalAgentHistories(Instances instances) {
        this.instances = instances;
    }

    @Override
    public Optional<AgentHistory> find(String agentId) {
        instances.requireRunning();
        ReadOnlyKeyValueStore<String, AgentHistory> store = instances.localStore(
                ReputationTopology.STORE, QueryableStoreTypes.<String, AgentHistory>keyValueStore());
        return Optional.ofNullable(store.get(agentId));
    }
}
