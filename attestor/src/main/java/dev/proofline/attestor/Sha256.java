package dev.proofline.attestor;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import tools.jackson.databind.JsonNode;

/** Lowercase hex SHA-256 of a value's RFC 8785 canonical UTF-8 bytes ({@code docs/hashes.md}). */
public final class Sha256 {
    // One digest per thread: looking one up through the provider list costs more than hashing a receipt.
    private static final ThreadLocal<MessageDigest> DIGESTS = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    });

    private Sha256() {}

    public static String ofCanonical(JsonNode value) {
        return new CanonicalWriter().value(value).sha256Hex();
    }

    public static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(digest(bytes, 0, bytes.length));
    }

    /** The 32-byte SHA-256 of {@code length} bytes from {@code offset}. */
    public static byte[] digest(byte[] bytes, int offset, int length) {
        MessageDigest digest = DIGESTS.get();
        digest.update(bytes, offset, length);
        return digest.digest(); // also resets it
    }
}
