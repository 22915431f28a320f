package dev.proofline.reputation;

import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** Interactive queries against this instance's own {@code agent-history} store. */
final class LocalAgentHistories implements AgentHistories {
    private final KafkaStreams streams;

    LocalAgentHistories(KafkaStreams streams) {
        this.streams = streams;
    }

    @Override
    public Optional<AgentHistory> find(String agentId) {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            throw new NotQueryableException("the pipeline is " + streams.state());
        }
        try {
            ReadOnlyKeyValueStore<String, AgentHistory> store = streams.store(StoreQueryParameters.fromNameAndType(
                    ReputationTopology.STORE, QueryableStoreTypes.<String, AgentHistory>keyValueStore()));
            return Optional.ofNullable(store.get(agentId));
        } catch (InvalidStateStoreException e) {
            throw new NotQueryableException(e.getMessage());
        }
    }
}
