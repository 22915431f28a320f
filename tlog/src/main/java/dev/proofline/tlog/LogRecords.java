package dev.proofline.tlog;

import java.util.HexFormat;

/**
 * The keys of the published log (one compacted topic, read by every instance): tiles and entry
 * bundles under their tile key, the latest signed checkpoint, every checkpoint by its size; and,
 * beside them in each instance's store (derived from the bundles, not published), each entry's
 * index by the entry (a receipt's SHA-256, in hex).
 */
public final class LogRecords {
    /** The latest signed checkpoint. */
    public static final String CHECKPOINT = "checkpoint";

    private LogRecords() {}

    /**
     * A receipt's entry in the log: the SHA-256 of its signed JSON's UTF-8 bytes, exactly as {@code
     * GET /receipts/{id}} returns it. Whoever holds the receipt can compute it; the log shows nothing else.
     */
    public static byte[] entry(String signedJson) {
        return MerkleHashes.sha256(signedJson.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The signed checkpoint of this size, kept for monitors and audits. */
    public static String checkpoint(long size) {
        return CHECKPOINT + "/" + size;
    }

    /** The entry's index in the log, as 8 big-endian bytes. */
    public static String index(byte[] entry) {
        return "index/" + HexFormat.of().formatHex(entry);
    }

    /** The text of a signed note, without its signatures (for a note this log signed itself). */
    public static String noteText(String note) {
        int split = note.lastIndexOf("\n\n");
        if (split < 0) {
            throw new IllegalArgumentException("not a signed note");
        }
        return note.substring(0, split + 1);
    }
}
