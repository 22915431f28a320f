package dev.proofline.tlog;

import dev.proofline.attestor.StrictBase64;
import java.util.Base64;

/**
 * A C2SP tlog-checkpoint's text: the origin, the tree size and the root hash, one per line.
 * Extension lines, which the specification leaves opaque and optional, are never written and are
 * skipped when read.
 */
public record Checkpoint(String origin, long size, byte[] root) {
    public Checkpoint {
        if (origin.isEmpty() || origin.contains("\n") || size < 0 || root.length != MerkleHashes.SIZE) {
            throw new IllegalArgumentException("not a checkpoint");
        }
        root = root.clone();
    }

    @Override
    public byte[] root() {
        return root.clone();
    }

    public String text() {
        return origin + "\n" + size + "\n" + Base64.getEncoder().encodeToString(root) + "\n";
    }

    /** Parses a checkpoint's text (the signed note's text, already verified). */
    public static Checkpoint parse(String text) {
        String[] lines = text.split("\n", -1);
        if (lines.length < 4 || !lines[lines.length - 1].isEmpty()) {
            throw new IllegalArgumentException(
                    "a checkpoint is three lines (origin, size, root hash), then any extension lines");
        }
        for (int i = 3; i < lines.length - 1; i++) {
            if (lines[i].isEmpty()) {
                throw new IllegalArgumentException("a checkpoint's extension lines are not empty");
            }
        }
        if (!lines[1].matches("0|[1-9][0-9]{0,18}")) {
            throw new IllegalArgumentException("a checkpoint's size is a decimal without leading zeros");
        }
        byte[] root;
        try {
            root = StrictBase64.decode(lines[2]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a checkpoint's root hash is base64");
        }
        if (root.length != MerkleHashes.SIZE) {
            throw new IllegalArgumentException("a checkpoint's root hash is 32 bytes");
        }
        return new Checkpoint(lines[0], Long.parseLong(lines[1]), root);
    }

    /** Opens a signed checkpoint note with the log's verifier key and parses it. */
    public static Checkpoint open(String note, NoteVerifier verifier) {
        Checkpoint checkpoint = parse(verifier.open(note));
        if (!checkpoint.origin().equals(verifier.name())) {
            throw new IllegalArgumentException("the checkpoint's origin is not the key's name");
        }
        return checkpoint;
    }
}
