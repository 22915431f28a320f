package dev.proofline.reputation;

import java.time.Duration;

/**
 * An agent's pass and fail counts with each receipt's weight halving every half-life: the beta
 * reputation system of Jøsang and Ismail (2002) in continuous time. The weights are kept as of
 * {@code anchorMillis}, the latest verification time seen, so adding a receipt is O(1) whatever
 * order receipts arrive in: a later receipt moves the anchor and decays what was there; an earlier
 * one is added already decayed. Either way the sum is the same (up to rounding), so replays and
 * late receipts give the same score.
 *
 * @param anchorMillis when the weights are valid (epoch milliseconds); {@link Long#MIN_VALUE} when empty
 */
public record DecayedCounts(long anchorMillis, double passed, double failed) {
    public static final String METHOD = "beta-reputation-exponential-decay";
    public static final DecayedCounts NONE = new DecayedCounts(Long.MIN_VALUE, 0, 0);

    /** The counts with one more receipt verified at {@code atMillis}. */
    public DecayedCounts with(boolean pass, long atMillis, Duration halfLife) {
        if (anchorMillis == Long.MIN_VALUE) {
            return new DecayedCounts(atMillis, pass ? 1 : 0, pass ? 0 : 1);
        }
        if (atMillis >= anchorMillis) {
            double kept = factor(atMillis - anchorMillis, halfLife);
            return new DecayedCounts(atMillis, passed * kept + (pass ? 1 : 0), failed * kept + (pass ? 0 : 1));
        }
        double weight = factor(anchorMillis - atMillis, halfLife); // a late receipt arrives already decayed
        return new DecayedCounts(anchorMillis, passed + (pass ? weight : 0), failed + (pass ? 0 : weight));
    }

    /** The counts as of {@code asOfMillis}, which must not be before the anchor. */
    public DecayedCounts asOf(long asOfMillis, Duration halfLife) {
        if (anchorMillis == Long.MIN_VALUE) {
            return this;
        }
        if (asOfMillis < anchorMillis) {
            throw new IllegalArgumentException("as of a time before the latest receipt");
        }
        double kept = factor(asOfMillis - anchorMillis, halfLife);
        return new DecayedCounts(asOfMillis, passed * kept, failed * kept);
    }

    /** The effective number of receipts: the sum of their weights. */
    public double effectiveN() {
        return passed + failed;
    }

    /** The Wilson 95% lower bound on the decayed counts; 0 without weight. */
    public double score() {
        return TrustScore.of(passed, failed);
    }

    private static double factor(long elapsedMillis, Duration halfLife) {
        return Math.pow(0.5, (double) elapsedMillis / halfLife.toMillis());
    }
}
