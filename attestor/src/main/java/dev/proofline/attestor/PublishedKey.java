package dev.proofline.attestor;

import java.util.Base64;

/**
 * A public key as the agent-card publishes it: {@code {keyVersion, algorithm, publicKey}}, the key
 * being base64 of the raw 32-byte Ed25519 public key.
 */
public record PublishedKey(String keyVersion, String algorithm, String publicKey) {
    public static final String ED25519 = "Ed25519";

    public PublishedKey {
        if (!ED25519.equals(algorithm)) {
            throw new IllegalArgumentException("unsupported key algorithm: " + algorithm);
        }
        byte[] raw = decode(publicKey);
        if (raw.length != 32) {
            throw new IllegalArgumentException("an Ed25519 public key is 32 bytes, this one is " + raw.length);
        }
        // 32 bytes are not yet a key: Bouncy Castle refuses a point off the curve only when it is used.
        try {
            new org.bouncycastle.crypto.params.Ed25519PublicKeyParameters(raw);
        } catch (IllegalArgumentException notAPoint) {
            throw new IllegalArgumentException("the public key is not a point of Ed25519");
        }
    }

    public static PublishedKey ed25519(String keyVersion, byte[] raw) {
        return new PublishedKey(keyVersion, ED25519, Base64.getEncoder().encodeToString(raw));
    }

    public byte[] rawKey() {
        return decode(publicKey);
    }

    private static byte[] decode(String base64) {
        try {
            return Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("public key is not valid base64");
        }
    }
}
