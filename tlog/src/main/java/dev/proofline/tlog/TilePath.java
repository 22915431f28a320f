package dev.proofline.tlog;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The address of a tile or entry bundle in the C2SP tlog-tiles layout: {@code tile/<L>/<N>[.p/<W>]}
 * and {@code tile/entries/<N>[.p/<W>]}, with {@code N} in zero-padded three-digit path elements, all
 * but the last prefixed with {@code x} (1234067 is {@code x001/x234/067}).
 *
 * @param level   the tile's level, 0 to 63; -1 for an entry bundle
 * @param index   the tile's index within its level
 * @param width   hashes (or entries) in it: 256 for a full tile, 1 to 255 for a partial one
 */
public record TilePath(int level, long index, int width) {
    public static final int WIDTH = 256;
    public static final int ENTRIES = -1;

    private static final Pattern PATH =
            Pattern.compile("tile/(entries|0|[1-9][0-9]?)/((?:x[0-9]{3}/)*[0-9]{3})(?:\\.p/([1-9][0-9]{0,2}))?");

    public TilePath {
        if (level < ENTRIES || level > 63 || index < 0 || width < 1 || width > WIDTH) {
            throw new IllegalArgumentException("no such tile");
        }
    }

    public boolean isEntries() {
        return level == ENTRIES;
    }

    public boolean isFull() {
        return width == WIDTH;
    }

    /** The path, without a leading slash. */
    public String path() {
        // Built by hand, not with String.format: the sequencer names a tile for every entry it appends.
        StringBuilder n = new StringBuilder(32);
        n.append("tile/")
                .append(isEntries() ? "entries" : Integer.toString(level))
                .append('/');
        long scale = 1;
        while (index / scale >= 1000) {
            scale *= 1000;
        }
        for (; scale > 1; scale /= 1000) {
            n.append('x');
            threeDigits(n, (index / scale) % 1000).append('/');
        }
        threeDigits(n, index % 1000);
        return isFull() ? n.toString() : n.append(".p/").append(width).toString();
    }

    private static StringBuilder threeDigits(StringBuilder out, long n) {
        return out.append((char) ('0' + n / 100))
                .append((char) ('0' + n / 10 % 10))
                .append((char) ('0' + n % 10));
    }

    /**
     * The smallest tree that has this tile at this width: a tile of level L holds hashes of 256^L
     * entries each, so its last one ends at entry (N * 256 + W) * 256^L; an entry bundle is level
     * 0's. {@link Long#MAX_VALUE} when that is past what a long counts: no log grows that far.
     */
    public long treeSizeNeeded() {
        try {
            long size = Math.addExact(Math.multiplyExact(index, (long) WIDTH), width);
            for (int l = 0; l < level; l++) {
                size = Math.multiplyExact(size, (long) WIDTH);
            }
            return size;
        } catch (ArithmeticException pastALong) {
            return Long.MAX_VALUE;
        }
    }

    /** The key under which the tile is stored, whatever its width: {@code tile/<L>/<N>}. */
    public String storeKey() {
        return new TilePath(level, index, WIDTH).path();
    }

    /** Parses a path as the specification writes it; anything else is null. */
    public static TilePath parse(String path) {
        Matcher m = PATH.matcher(path);
        if (!m.matches()) {
            return null;
        }
        int level = m.group(1).equals("entries") ? ENTRIES : Integer.parseInt(m.group(1));
        if (level > 63) {
            return null;
        }
        String[] parts = m.group(2).split("/");
        if (parts.length > 7) {
            return null; // more than a long holds
        }
        long index = 0;
        try {
            for (String part : parts) {
                long digits = Long.parseLong(part.startsWith("x") ? part.substring(1) : part);
                index = Math.addExact(Math.multiplyExact(index, 1000), digits);
            }
        } catch (ArithmeticException beyondALong) {
            return null; // seven elements can write up to 10^21: no tile of this log has such an index
        }
        if (parts.length > 1 && parts[0].equals("x000")) {
            return null; // one index, one path: no leading zero elements
        }
        int width = m.group(3) == null ? WIDTH : Integer.parseInt(m.group(3));
        if (m.group(3) != null && width >= WIDTH) {
            return null; // a full tile has no .p suffix
        }
        return new TilePath(level, index, width);
    }
}
