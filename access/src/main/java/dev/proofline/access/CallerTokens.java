package dev.proofline.access;

import dev.proofline.attestor.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Bearer tokens: {@code pl_} and 256 random bits in base64url. Only a token's SHA-256 is ever
 * stored; a token is shown once, when it is made, and never logged.
 */
public final class CallerTokens {
    public static final String PREFIX = "pl_";
    private static final SecureRandom RANDOM = new SecureRandom();

    private CallerTokens() {}

    public static String newToken() {
        byte[] bits = new byte[32];
        RANDOM.nextBytes(bits);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bits);
    }

    /** What the callers topic keeps: lowercase hex SHA-256 of the token's UTF-8 bytes. */
    public static String hash(String token) {
        return Sha256.hex(token.getBytes(StandardCharsets.UTF_8));
    }
}
