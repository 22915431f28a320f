package dev.proofline.tlog;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The hashes of an RFC 6962 / RFC 9162 Merkle tree over SHA-256, with their domain separation. */
public final class MerkleHashes {
    public static final int SIZE = 32;

    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    });

    private MerkleHashes() {}

    /** The root of the empty tree: SHA-256 of nothing. */
    public static byte[] emptyRoot() {
        return SHA256.get().digest();
    }

    /** A leaf: SHA-256(0x00 || entry). */
    public static byte[] leaf(byte[] entry) {
        MessageDigest sha = SHA256.get();
        sha.update((byte) 0);
        return sha.digest(entry);
    }

    /** An interior node: SHA-256(0x01 || left || right). */
    public static byte[] node(byte[] left, byte[] right) {
        MessageDigest sha = SHA256.get();
        sha.update((byte) 1);
        sha.update(left);
        return sha.digest(right);
    }

    /** SHA-256 of bytes, for entries (the digest of a receipt). */
    public static byte[] sha256(byte[] bytes) {
        return SHA256.get().digest(bytes);
    }
}
