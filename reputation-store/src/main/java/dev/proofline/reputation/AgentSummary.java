package dev.proofline.reputation;

import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ReceiptFields;
import dev.proofline.contract.ReceiptTimes;
import java.util.Comparator;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One leaderboard row: an agent's counts and when it was last seen; the score follows from them.
 *
 * <p>The rankings keep a row per agent in memory, so a row is kept small: the time is held as
 * epoch microseconds when it is in the form receipts are stamped with, and printed back exactly
 * when asked for (64 bytes less per agent, 64 MB for a million); any other text is kept as it came.
 */
public final class AgentSummary {
    /** Best first: higher trust score, then the longer record, then the id, so the order is total. */
    public static final Comparator<AgentSummary> BEST_FIRST = Comparator.comparingDouble(AgentSummary::trustScore)
            .reversed()
            .thenComparing(Comparator.comparingLong(AgentSummary::total).reversed())
            .thenComparing(AgentSummary::agentId);

    private static final long NOT_COMPACT = ReceiptTimes.NOT_IN_FORM;

    private final String agentId;
    private final long passed;
    private final long failed;
    private final long lastVerifiedMicros; // NOT_COMPACT: the text below is the time (or there is none)
    private final String lastVerifiedText;
    private final String lastResult;

    public AgentSummary(String agentId, long passed, long failed, String lastVerifiedAt, String lastResult) {
        this.agentId = agentId;
        this.passed = passed;
        this.failed = failed;
        this.lastVerifiedMicros = lastVerifiedAt == null ? NOT_COMPACT : ReceiptTimes.epochMicros(lastVerifiedAt);
        this.lastVerifiedText = lastVerifiedMicros == NOT_COMPACT ? lastVerifiedAt : null;
        this.lastResult = lastResult;
    }

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

    public String agentId() {
        return agentId;
    }

    public long passed() {
        return passed;
    }

    public long failed() {
        return failed;
    }

    /** The {@code verified_at} of the agent's latest receipt, exactly as the receipt has it. */
    public String lastVerifiedAt() {
        return lastVerifiedMicros == NOT_COMPACT ? lastVerifiedText : ReceiptTimes.format(lastVerifiedMicros);
    }

    public String lastResult() {
        return lastResult;
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
        row.put("last_verified_at", lastVerifiedAt());
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

    @Override
    public boolean equals(Object o) {
        return o instanceof AgentSummary other
                && passed == other.passed
                && failed == other.failed
                && lastVerifiedMicros == other.lastVerifiedMicros
                && Objects.equals(agentId, other.agentId)
                && Objects.equals(lastVerifiedText, other.lastVerifiedText)
                && Objects.equals(lastResult, other.lastResult);
    }

    @Override
    public int hashCode() {
        return Objects.hash(agentId, passed, failed, lastVerifiedMicros, lastVerifiedText, lastResult);
    }

    @Override
    public String toString() {
        return "AgentSummary[agentId=" + agentId + ", passed=" + passed + ", failed=" + failed + ", lastVerifiedAt="
                + lastVerifiedAt() + ", lastResult=" + lastResult + "]";
    }
}
