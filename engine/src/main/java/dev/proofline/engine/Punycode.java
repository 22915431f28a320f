package dev.proofline.engine;

import java.util.Optional;

/**
 * RFC 3492 Punycode decoding, for checking the A-labels ({@code xn--...}) of host names. Written
 * here rather than taken from {@link java.net.IDN}, which applies IDNA2003 and, on any failure,
 * silently returns its input.
 */
final class Punycode {
    private static final int BASE = 36;
    private static final int TMIN = 1;
    private static final int TMAX = 26;
    private static final int SKEW = 38;
    private static final int DAMP = 700;
    private static final int INITIAL_BIAS = 72;
    private static final int INITIAL_N = 128;

    private Punycode() {}

    /** The Unicode text the ASCII {@code input} (without {@code xn--}) encodes, or empty if none. */
    static Optional<String> decode(String input) {
        int basicEnd = input.lastIndexOf('-');
        StringBuilder output = new StringBuilder();
        for (int i = 0; i < Math.max(basicEnd, 0); i++) {
            char c = input.charAt(i);
            if (c >= 0x80) {
                return Optional.empty();
            }
            output.append(c);
        }
        int[] codePoints = output.codePoints().toArray();
        int length = codePoints.length;
        int[] decoded = new int[input.length() + 1];
        System.arraycopy(codePoints, 0, decoded, 0, length);
        long n = INITIAL_N;
        long i = 0;
        int bias = INITIAL_BIAS;
        int at = basicEnd > 0 ? basicEnd + 1 : 0;
        while (at < input.length()) {
            long oldI = i;
            long w = 1;
            for (int k = BASE; ; k += BASE) {
                if (at >= input.length()) {
                    return Optional.empty();
                }
                int digit = digit(input.charAt(at++));
                if (digit < 0) {
                    return Optional.empty();
                }
                i += digit * w;
                if (i > Integer.MAX_VALUE) {
                    return Optional.empty();
                }
                int t = k <= bias ? TMIN : Math.min(k - bias, TMAX);
                if (digit < t) {
                    break;
                }
                w *= BASE - t;
                if (w > Integer.MAX_VALUE) {
                    return Optional.empty();
                }
            }
            length++;
            bias = adapt(i - oldI, length, oldI == 0);
            n += i / length;
            i %= length;
            if (n > Character.MAX_CODE_POINT || (n >= 0xD800 && n <= 0xDFFF)) {
                return Optional.empty();
            }
            System.arraycopy(decoded, (int) i, decoded, (int) i + 1, length - 1 - (int) i);
            decoded[(int) i] = (int) n;
            i++;
        }
        return Optional.of(new String(decoded, 0, length));
    }

    private static int digit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0' + 26;
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a';
        }
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        return -1;
    }

    private static int adapt(long delta, int points, boolean first) {
        delta = first ? delta / DAMP : delta / 2;
        delta += delta / points;
        int k = 0;
        while (delta > ((BASE - TMIN) * TMAX) / 2) {
            delta /= BASE - TMIN;
            k += BASE;
        }
        return (int) (k + (BASE - TMIN + 1) * delta / (delta + SKEW));
    }
}
