package dev.proofline.reputation.query;

import dev.proofline.reputation.AgentHistory;
import dev.proofline.reputation.AgentHistorySerde;
import dev.proofline.reputation.AgentStanding;
import dev.proofline.reputation.ReputationTopology;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.streams.state.HostInfo;
import tools.jackson.databind.JsonNode;

/**
 * Finds an agent's history wherever it lives: this instance answers from its own store, or asks
 * the owner {@link Instances} names over its internal route. While the key has no owner (a
 * rebalance) the answer is {@link NotQueryableException}.
 */
public final class RoutedAgentHistories implements AgentHistories {
    /** The internal route an owner answers; a forwarded query is never forwarded again. */
    public static final String INTERNAL_PATH = "/internal/agent-history/";

    private final Instances instances;
    private final LocalAgentHistories local;

    public RoutedAgentHistories(Instances instances) {
        this.instances = instances;
        this.local = new LocalAgentHistories(instances);
    }

    /** What this instance's own stores hold, for the internal route. */
    public Optional<AgentStanding> standingLocally(String agentId) {
        return local.standing(agentId);
    }

    @Override
    public Optional<AgentHistory> find(String agentId) {
        return fromOwner(agentId, local::find, AgentHistorySerde::fromJson);
    }

    @Override
    public Optional<AgentStanding> standing(String agentId) {
        return fromOwner(agentId, local::standing, AgentStanding::fromJson);
    }

    /** Read here when this instance owns the agent, else from the owner's internal route (standing JSON). */
    private <T> Optional<T> fromOwner(
            String agentId, Function<String, Optional<T>> here, Function<JsonNode, T> fromJson) {
        HostInfo owner = instances.owner(ReputationTopology.STORE, agentId);
        if (instances.isSelf(owner)) {
            return here.apply(agentId);
        }
        String path = INTERNAL_PATH
                + URLEncoder.encode(agentId, StandardCharsets.UTF_8).replace("+", "%20");
        return instances.ask(owner, path).map(fromJson);
    }
}
