package dev.proofline.reputation.query;

import dev.proofline.reputation.AgentRankings;
import dev.proofline.reputation.AgentSummary;
import dev.proofline.reputation.ReputationTopology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.HostInfo;
import tools.jackson.databind.JsonNode;

/**
 * Every agent, from any instance: each instance holds the histories of its own partitions, so the
 * leaderboard asks every instance for its best agents and merges them. An instance that cannot
 * answer makes the answer {@code complete: false} rather than failing it.
 */
public final class AgentDirectory {
    /** The internal route an instance answers with its own best agents; never forwarded again. */
    public static final String INTERNAL_PATH = "/internal/agents";

    /** The merged leaderboard and whether every instance contributed to it. */
    public record Leaderboard(List<AgentSummary> agents, long agentCount, int instances, boolean complete) {}

    /** One instance's part: its best {@code limit} agents and how many it holds in all. */
    public record LocalPart(List<AgentSummary> best, long agentCount) {}

    private final Instances instances;
    private final AgentRankings rankings;

    public AgentDirectory(Instances instances, AgentRankings rankings) {
        this.instances = instances;
        this.rankings = rankings;
    }

    public Leaderboard leaderboard(int limit) {
        Instances.FanOut<LocalPart> parts =
                instances.askEvery(ReputationTopology.STORE, () -> local(limit), instance -> ask(instance, limit));
        Map<String, AgentSummary> merged = new HashMap<>();
        long count = 0;
        for (LocalPart part : parts.answers()) {
            part.best().forEach(s -> merged.merge(s.agentId(), s, (a, b) -> a.total() >= b.total() ? a : b));
            count += part.agentCount();
        }
        List<AgentSummary> best = new ArrayList<>(merged.values());
        best.sort(AgentSummary.BEST_FIRST);
        return new Leaderboard(
                List.copyOf(best.subList(0, Math.min(limit, best.size()))), count, parts.asked(), parts.complete());
    }

    /** This instance's own agents (the partitions it processes), best first, from its rankings. */
    public LocalPart local(int limit) {
        instances.requireRunning();
        return new LocalPart(rankings.best(limit), rankings.agentCount());
    }

    private LocalPart ask(HostInfo instance, int limit) {
        JsonNode body = instances
                .ask(instance, INTERNAL_PATH + "?limit=" + limit)
                .orElseThrow(() -> new NotQueryableException(instance + " has no agent directory"));
        List<AgentSummary> best = new ArrayList<>();
        body.get("agents").forEach(row -> best.add(AgentSummary.fromJson(row)));
        return new LocalPart(best, body.get("agent_count").asLong());
    }
}
