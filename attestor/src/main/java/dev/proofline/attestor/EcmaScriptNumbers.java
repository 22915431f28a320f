package dev.proofline.attestor;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Prints a double exactly as ECMAScript's {@code Number::toString} does, which is what RFC 8785
 * requires: the shortest decimal that reads back as the same double (the one closest to the exact
 * value when several have that length), laid out in plain or exponent form by the decimal exponent.
 *
 * <p>Why not a library: Java 17's {@code Double.toString} is not the shortest form for about 1% of
 * doubles (fixed in JDK 19), and the RFC author's Java printer never returns on some subnormals
 * ({@code 1e-315}), which would let one number in a request hang a processor.
 *
 * <p>How: for a digit count p, some p-digit decimal reads back as x exactly when the p-digit
 * neighbours of x just below or just above it do (the set of decimals that read back as x is an
 * interval around x). That test only gets easier as p grows, and {@code Double.toString} always
 * reads back, so the shortest count is found by stepping down from the length Java prints.
 * {@code Double.parseDouble} rounds correctly, which makes each test exact.
 */
public final class EcmaScriptNumbers {
    /** Integers up to 2^53 print as their digits in both languages; no digit search needed. */
    private static final double EXACT_INTEGER_LIMIT = 9007199254740992.0;

    private EcmaScriptNumbers() {}

    public static String format(double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("non-finite number has no JSON form: " + value);
        }
        if (value == Math.rint(value) && Math.abs(value) <= EXACT_INTEGER_LIMIT) {
            return Long.toString((long) value); // also turns -0 into "0"
        }
        String fast = fifteenDigitsOrFewer(value);
        if (fast != null) {
            return fast;
        }
        BigDecimal shortest = shortestDecimal(Math.abs(value));
        return (value < 0 ? "-" : "") + layout(shortest.unscaledValue().toString(), shortest.scale());
    }

    /**
     * The common case, without BigDecimal: a decimal m * 10^-k with m below 10^15 that reads back as
     * x. Distinct decimals of at most 15 significant digits never read back as the same double, so
     * such a decimal is the only one of its length or shorter: it is the answer. With m and 10^k
     * (k <= 22) exact doubles, {@code m / 10^k} is correctly rounded, i.e. it is what parsing the
     * decimal gives. Returns null when no such decimal exists (the digit search then decides).
     */
    private static String fifteenDigitsOrFewer(double value) {
        double x = Math.abs(value);
        if (x >= 1e15 || x < 1e-22) { // below 1e-22, m / 10^22 rounds to zero for every m
            return null;
        }
        for (int k = 0; k <= 22; k++) {
            double m = Math.rint(x * POWERS_OF_TEN[k]);
            if (m >= 1e15) {
                return null;
            }
            if (m / POWERS_OF_TEN[k] == x) {
                long digits = (long) m;
                int scale = k;
                while (digits % 10 == 0 && scale > 0) {
                    digits /= 10;
                    scale--;
                }
                return (value < 0 ? "-" : "") + layout(Long.toString(digits), scale);
            }
        }
        return null;
    }

    private static final double[] POWERS_OF_TEN = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    };

    /** The shortest decimal that reads back as {@code x} (x > 0 and finite), without trailing zeros. */
    static BigDecimal shortestDecimal(double x) {
        BigDecimal exact = new BigDecimal(x);
        int digits = new BigDecimal(Double.toString(x)).stripTrailingZeros().precision();
        BigDecimal best = closestThatReadsBack(exact, x, digits);
        while (digits > 1) {
            BigDecimal shorter = closestThatReadsBack(exact, x, digits - 1);
            if (shorter == null) {
                break;
            }
            best = shorter;
            digits--;
        }
        if (best == null) {
            throw new IllegalStateException("Double.toString did not read back for " + Double.doubleToRawLongBits(x));
        }
        return best.stripTrailingZeros();
    }

    /** Of the two p-digit decimals around {@code exact}, the closer one that reads back, or null. */
    private static BigDecimal closestThatReadsBack(BigDecimal exact, double x, int precision) {
        BigDecimal below = exact.round(new MathContext(precision, RoundingMode.FLOOR));
        BigDecimal above = exact.round(new MathContext(precision, RoundingMode.CEILING));
        boolean belowOk = Double.parseDouble(below.toString()) == x;
        boolean aboveOk = Double.parseDouble(above.toString()) == x;
        if (belowOk && aboveOk) {
            int cmp = exact.subtract(below).compareTo(above.subtract(exact));
            if (cmp != 0) {
                return cmp < 0 ? below : above;
            }
            return below.unscaledValue().testBit(0) ? above : below; // a tie goes to the even digit
        }
        return belowOk ? below : aboveOk ? above : null;
    }

    /**
     * ECMAScript's layout of digits s (k of them) times 10^(n-k): plain digits while the decimal
     * exponent n is in (-6, 21], exponent form outside (Number::toString, steps 6 to 10).
     */
    private static String layout(String s, int scale) {
        int k = s.length();
        int n = k - scale;
        StringBuilder out = new StringBuilder(k + 8);
        if (k <= n && n <= 21) {
            out.append(s).append("0".repeat(n - k));
        } else if (0 < n && n <= 21) {
            out.append(s, 0, n).append('.').append(s, n, k);
        } else if (-6 < n && n <= 0) {
            out.append("0.").append("0".repeat(-n)).append(s);
        } else {
            int e = n - 1;
            out.append(s.charAt(0));
            if (k > 1) {
                out.append('.').append(s, 1, k);
            }
            out.append('e').append(e < 0 ? '-' : '+').append(Math.abs(e));
        }
        return out.toString();
    }
}
