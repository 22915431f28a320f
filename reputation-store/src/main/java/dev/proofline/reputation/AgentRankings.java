package dev.proofline.reputation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * This instance's agents in leaderboard order, one ranking per partition it processes, so the best
 * {@code k} are the first {@code k} of a sorted set and the leaderboard costs the same with fifty
 * agents or a million. Each ranking is derived from its task's {@code agent-history} store: built
 * from it when the task starts (after restoration), kept in step by {@link RankAgents}, dropped when
 * the task leaves. It lives in memory, not in a state store: a store sorted by score turns every
 * score change into a delete, and a range scan over RocksDB's tombstones grows with them.
 *
 * <p>Memory: one row per agent of this instance's partitions, about 190 bytes each (190 MB for a
 * million agents on one instance; spread over instances as the partitions are).
 */
public final class AgentRankings {
    private final Map<Integer, Ranking> byPartition = new ConcurrentHashMap<>();

    /** One task's agents: rows best first, and each agent's current row to find it again. */
    static final class Ranking {
        private final ConcurrentSkipListSet<AgentSummary> best = new ConcurrentSkipListSet<>(AgentSummary.BEST_FIRST);
        private final Map<String, AgentSummary> current = new ConcurrentHashMap<>();

        /**
         * The new row is added before the old one leaves, so a reader may see both (the directory keeps
         * the newer), never neither; a row of the same rank (same score, total and id) replaces in place.
         */
        void update(AgentSummary row) {
            AgentSummary previous = current.put(row.agentId(), row);
            if (previous != null && AgentSummary.BEST_FIRST.compare(previous, row) == 0) {
                best.remove(previous);
                best.add(row);
                return;
            }
            best.add(row);
            if (previous != null) {
                best.remove(previous);
            }
        }

        int size() {
            return current.size();
        }
    }

    /** A task on {@code partition} starts with this ranking (built before it is shown); it replaces any earlier one. */
    Ranking start(int partition, Ranking ranking) {
        byPartition.put(partition, ranking);
        return ranking;
    }

    /** The task left this instance (or closed): its ranking goes with it unless a newer one replaced it. */
    void stop(int partition, Ranking ranking) {
        byPartition.remove(partition, ranking);
    }

    /** The best {@code limit} rows of this instance's agents, best first. */
    public List<AgentSummary> best(int limit) {
        List<AgentSummary> rows = new ArrayList<>();
        for (Ranking ranking : byPartition.values()) {
            int taken = 0;
            for (AgentSummary row : ranking.best) {
                if (taken++ == limit) {
                    break;
                }
                rows.add(row);
            }
        }
        // A row seen twice (mid-update) keeps its newest form: the longer record.
        Map<String, AgentSummary> unique = new java.util.LinkedHashMap<>();
        rows.forEach(row -> unique.merge(row.agentId(), row, (a, b) -> a.total() >= b.total() ? a : b));
        List<AgentSummary> merged = new ArrayList<>(unique.values());
        merged.sort(AgentSummary.BEST_FIRST);
        return List.copyOf(merged.subList(0, Math.min(limit, merged.size())));
    }

    /** How many agents this instance's partitions hold. */
    public long agentCount() {
        return byPartition.values().stream().mapToLong(Ranking::size).sum();
    }
}
