package dev.proofline.attestor;

/**
 * Signs with one Ed25519 key. Ed25519 is deterministic (RFC 8032), so every implementation gives
 * the same 64 bytes for the same key and message; they differ only in speed.
 */
public interface Ed25519Signer {
    byte[] sign(byte[] message);

    /** Which implementation signs, for the start-up line and the bench. */
    String implementation();
}
