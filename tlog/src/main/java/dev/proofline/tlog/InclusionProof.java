package dev.proofline.tlog;

import dev.proofline.attestor.StrictBase64;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A C2SP tlog-proof ({@code c2sp.org/tlog-proof@v1}): the entry's index, its inclusion proof and the
 * signed checkpoint it is proved against, in one self-contained text that verifies offline.
 *
 * @param checkpointNote the signed checkpoint, verbatim
 */
public record InclusionProof(long index, List<byte[]> hashes, String checkpointNote) {
    public static final String HEADER = "c2sp.org/tlog-proof@v1";

    public InclusionProof {
        hashes = List.copyOf(hashes);
    }

    public String text() {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        out.append("index ").append(index).append('\n');
        hashes.forEach(h -> out.append(Base64.getEncoder().encodeToString(h)).append('\n'));
        return out.append('\n').append(checkpointNote).toString();
    }

    public static InclusionProof parse(String text) {
        String[] lines = text.split("\n", -1);
        int at = 0;
        if (lines.length < 4 || !lines[at++].equals(HEADER)) {
            throw new IllegalArgumentException("not a tlog proof: the first line is " + HEADER);
        }
        if (lines[at].startsWith("extra ")) {
            at++; // opaque, unauthenticated, unused here
        }
        if (!lines[at].matches("index (0|[1-9][0-9]{0,18})")) {
            throw new IllegalArgumentException("not a tlog proof: no index line");
        }
        long index = Long.parseLong(lines[at++].substring(6));
        List<byte[]> hashes = new ArrayList<>();
        for (; at < lines.length && !lines[at].isEmpty(); at++) {
            byte[] hash;
            try {
                hash = StrictBase64.decode(lines[at]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("not a tlog proof: a proof line is not base64");
            }
            if (hash.length != MerkleHashes.SIZE) {
                throw new IllegalArgumentException("not a tlog proof: a proof hash is not 32 bytes");
            }
            hashes.add(hash);
        }
        if (at >= lines.length) {
            throw new IllegalArgumentException("not a tlog proof: no checkpoint after the proof");
        }
        String note = String.join("\n", java.util.Arrays.copyOfRange(lines, at + 1, lines.length));
        return new InclusionProof(index, hashes, note);
    }

    /**
     * Checks that {@code entry} is at this proof's index in the log whose checkpoint it carries,
     * signed by the given key; returns that checkpoint.
     *
     * @throws IllegalArgumentException naming what does not hold
     */
    public Checkpoint verify(byte[] entry, NoteVerifier log) {
        Checkpoint checkpoint = Checkpoint.open(checkpointNote, log);
        if (!MerkleProofs.verifyInclusion(
                index, checkpoint.size(), MerkleHashes.leaf(entry), hashes, checkpoint.root())) {
            throw new IllegalArgumentException("the entry is not at index " + index + " of the log of size "
                    + checkpoint.size() + " (the inclusion proof does not lead to the signed root)");
        }
        return checkpoint;
    }
}
