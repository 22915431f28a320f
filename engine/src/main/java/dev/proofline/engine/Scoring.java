package dev.proofline.engine;

/**
 * Whether a receipt counts toward its agent's score. Most do (a {@code test-} or missing agent id is
 * decided by the score itself); a receipt for an agent id bound to another caller's key does not,
 * and says so in its signed body: {@code "scoring": {"counted": false, "reason": ...}}
 * ({@code docs/access.md}).
 */
public record Scoring(boolean counted, String reason) {
    public static final Scoring COUNTED = new Scoring(true, null);

    public static Scoring notCounted(String reason) {
        return new Scoring(false, reason);
    }

    /** Decides for an agent id (possibly null) once the request is parsed. */
    @FunctionalInterface
    public interface Policy {
        Policy EVERY_RECEIPT = agentId -> COUNTED;

        Scoring forAgent(String agentId);
    }
}
