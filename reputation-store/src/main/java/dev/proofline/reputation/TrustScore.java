package dev.proofline.reputation;

/**
 * The trust score: the lower bound of the 95% Wilson score interval of an agent's pass rate.
 * It is 0 with no history, rises with the pass rate, and rewards a long record of passes more than a
 * short one (10 of 10 scores 0.722, 100 of 100 scores 0.963), so a new agent cannot look perfect.
 * It depends only on the pass and fail counts, so it is reproducible from the receipts topic alone.
 */
public final class TrustScore {
    public static final String METHOD = "wilson-lower-bound-95";
    private static final double Z = 1.959963984540054; // the 97.5th percentile of the standard normal

    private TrustScore() {}

    public static double of(long passed, long failed) {
        return of((double) passed, (double) failed);
    }

    /** The same bound on weighted counts (decayed scores): n is the sum of the weights. */
    public static double of(double passed, double failed) {
        double n = passed + failed;
        if (!(n > 0)) {
            return 0.0;
        }
        double p = passed / n;
        double z2 = Z * Z;
        double centre = p + z2 / (2.0 * n);
        double margin = Z * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n));
        return Math.max(0.0, (centre - margin) / (1 + z2 / n));
    }

    /** Rounded as receipts round ratios: 6 decimals. */
    public static double rounded(double score) {
        return Math.round(score * 1_000_000d) / 1_000_000d;
    }
}
