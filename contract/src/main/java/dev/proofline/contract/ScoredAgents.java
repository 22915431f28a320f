package dev.proofline.contract;

import java.util.Set;

/**
 * The one place that decides which agent ids are scored. Every receipt is signed and kept, but
 * receipts without an agent id, and those of {@code test-} agents (so a caller can try Proofline
 * without moving anyone's score), never count towards a trust score and are never listed.
 */
public final class ScoredAgents {
    /** Agent ids starting with this are verified for real but never scored. */
    public static final String TEST_PREFIX = "test-";

    /** What a caller sometimes sends in a path instead of an id, copied from the documentation. */
    private static final Set<String> PLACEHOLDERS = Set.of("{agent_id}", ":agent_id", "agent_id", "<agent_id>");

    private ScoredAgents() {}

    /** Whether receipts of this agent id count towards a score. */
    public static boolean isScored(String agentId) {
        return agentId != null && !agentId.isEmpty() && !isTestAgent(agentId);
    }

    public static boolean isTestAgent(String agentId) {
        return agentId != null && agentId.startsWith(TEST_PREFIX);
    }

    /** An empty id, or a documentation placeholder where a real agent id belongs. */
    public static boolean isPlaceholder(String agentId) {
        return agentId == null || agentId.isBlank() || PLACEHOLDERS.contains(agentId.trim());
    }
}
