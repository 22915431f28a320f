package dev.proofline.reputation;

import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ReceiptFields;
import java.util.Comparator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** One leaderboard row: an agent's counts and when it was last seen; the score follows from them. */
public record AgentSummary(String agentId, long passed, long failed, String lastVerifiedAt, String lastResult) {
    /** Best first: higher trust score, then the longer record, then the id, so the order is total. */
    public static final Comparator<AgentSummary> BEST_FIRST = Comparator.comparingDouble(AgentSummary::trustScore)
            .reversed()
            .thenComparing(Comparator.comparingLong(AgentSummary::total).reversed())
            .thenComparing(AgentSummary::agentId);

    public static AgentSummary of(AgentHistory h) {
        return new AgentSummary(h.agentId(), h.passed(), h.failed(), h.lastVerifiedAt(), shared(h.lastResult()));
    }

    /**
     * The result as the one shared constant: a decoded history brings its own copy, and the rankings
     * keep a row per agent in memory (48 bytes each, 48 MB for a million agents).
     */
    private static String shared(String result) {
        if (ReceiptFields.PASS.equals(result)) {
            return ReceiptFields.PASS;
        }
        return ReceiptFields.FAIL.equals(result) ? ReceiptFields.FAIL : result;
    }

    public long total() {
        return passed + failed;
    }

    public double trustScore() {
        return TrustScore.of(passed, failed);
    }

    public ObjectNode toJson() {
        ObjectNode row = StrictJson.NODES.objectNode();
        row.put("agent_id", agentId);
        row.put("trust_score", TrustScore.rounded(trustScore()));
        row.put("pass_rate", total() == 0 ? 0 : TrustScore.rounded((double) passed / total()));
        row.put("passed", passed);
        row.put("failed", failed);
        row.put("total", total());
        row.put("last_verified_at", lastVerifiedAt);
        row.put("last_result", lastResult);
        return row;
    }

    public static AgentSummary fromJson(JsonNode row) {
        return new AgentSummary(
                row.get("agent_id").asString(),
                row.get("passed").asLong(),
                row.get("failed").asLong(),
                row.path("last_verified_at").asString(null),
                row.path("last_result").asString(null));
    }
}
