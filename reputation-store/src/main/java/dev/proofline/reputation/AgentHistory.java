package dev.proofline.reputation;

import dev.proofline.contract.ReceiptFields;
import dev.proofline.contract.ScoredAgents;
import dev.proofline.schemas.avro.Receipt;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * One agent's record, folded from its receipts in topic order: counts, first and last verification
 * time, last result, its most recent receipts (newest first, each with its place in the receipts
 * topic so the signed receipt can be read back), and its score over time.
 *
 * <p>The timeline keeps at most {@link #TIMELINE} points over the agent's whole history: receipts in
 * the same second share a point, and when the list is full every second point is dropped, so the
 * oldest point always stays and resolution halves as the history grows. It depends only on the
 * receipts, in order, so a replay rebuilds it exactly.
 *
 * <p>{@code decayed} holds the same counts with each receipt's weight halving every half-life
 * ({@link DecayedCounts}); it depends on the receipts but not on their order.
 */
public record AgentHistory(
        String agentId,
        long passed,
        long failed,
        String firstVerifiedAt,
        String lastVerifiedAt,
        String lastResult,
        List<RecentReceipt> recent,
        List<ScorePoint> timeline,
        DecayedCounts decayed) {
    public static final int RECENT = 20;
    public static final int TIMELINE = 64;

    /** A recent receipt and where it is: partition and offset in the receipts topic (-1 when unknown). */
    public record RecentReceipt(String verificationId, String result, String verifiedAt, int partition, long offset) {
        public ReceiptPosition position() {
            return new ReceiptPosition(partition, offset);
        }
    }

    /**
     * The counts after the last receipt verified in the second {@code at} begins, and the decayed
     * score then (NaN for points recorded before decayed scores existed).
     */
    public record ScorePoint(String at, long passed, long failed, double decayedScore) {
        public double trustScore() {
            return TrustScore.of(passed, failed);
        }
    }

    public AgentHistory {
        recent = List.copyOf(recent);
        timeline = List.copyOf(timeline);
    }

    public static AgentHistory empty(String agentId) {
        return new AgentHistory(agentId, 0, 0, null, null, null, List.of(), List.of(), DecayedCounts.NONE);
    }

    /**
     * Only these receipts count: {@link ScoredAgents} decides which agent ids are scored, and a
     * receipt for an agent id bound to another caller's key is marked not counted when signed.
     */
    public static boolean counts(Receipt receipt) {
        return ScoredAgents.isScored(receipt.getAgentId()) && receipt.getCounted();
    }

    public AgentHistory with(Receipt receipt, int partition, long offset, Duration halfLife) {
        boolean pass = ReceiptFields.PASS.equals(receipt.getResult());
        OptionalLong at = VerifiedAt.millis(receipt.getVerifiedAt());
        DecayedCounts nowDecayed = at.isPresent() ? decayed.with(pass, at.getAsLong(), halfLife) : decayed;
        long nowPassed = passed + (pass ? 1 : 0);
        long nowFailed = failed + (pass ? 0 : 1);
        List<RecentReceipt> newest = new ArrayList<>(RECENT);
        newest.add(new RecentReceipt(
                receipt.getVerificationId(), receipt.getResult(), receipt.getVerifiedAt(), partition, offset));
        newest.addAll(recent.subList(0, Math.min(recent.size(), RECENT - 1)));
        return new AgentHistory(
                receipt.getAgentId(),
                nowPassed,
                nowFailed,
                firstVerifiedAt == null ? receipt.getVerifiedAt() : firstVerifiedAt,
                receipt.getVerifiedAt(),
                receipt.getResult(),
                newest,
                extend(timeline, new ScorePoint(receipt.getVerifiedAt(), nowPassed, nowFailed, nowDecayed.score())),
                nowDecayed);
    }

    static List<ScorePoint> extend(List<ScorePoint> timeline, ScorePoint point) {
        List<ScorePoint> points = new ArrayList<>(timeline);
        if (!points.isEmpty() && sameSecond(points.get(points.size() - 1).at(), point.at())) {
            points.set(
                    points.size() - 1,
                    new ScorePoint(
                            points.get(points.size() - 1).at(), point.passed(), point.failed(), point.decayedScore()));
            return points;
        }
        points.add(point);
        if (points.size() > TIMELINE) {
            List<ScorePoint> thinned = new ArrayList<>(TIMELINE / 2 + 1);
            for (int i = 0; i < points.size() - 1; i += 2) {
                thinned.add(points.get(i));
            }
            thinned.add(point); // the newest always stays
            return thinned;
        }
        return points;
    }

    /** ISO-8601 times as receipts write them: the first 19 characters name the second. */
    private static boolean sameSecond(String a, String b) {
        return a != null && b != null && a.length() >= 19 && b.length() >= 19 && a.regionMatches(0, b, 0, 19);
    }

    public long total() {
        return passed + failed;
    }

    public double trustScore() {
        return TrustScore.of(passed, failed);
    }
}
