package dev.proofline.attestor;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import tools.jackson.databind.JsonNode;

/** Lowercase hex SHA-256 of a value's RFC 8785 canonical UTF-8 bytes ({@code docs/hashes.md}). */
public final class Sha256 {
    private Sha256() {}

    public static String ofCanonical(JsonNode value) {
        return hex(CanonicalJson.toCanonicalBytes(value));
    }

    public static String hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
