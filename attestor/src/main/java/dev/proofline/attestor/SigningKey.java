package dev.proofline.attestor;

import java.security.SecureRandom;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * An Ed25519 private key with its version. The public key is derived once, because deriving it is
 * a scalar multiplication that would otherwise repeat on every signature.
 */
public final class SigningKey {
    private final String version;
    private final Ed25519PrivateKeyParameters privateKey;
    private final Ed25519PublicKeyParameters publicKey;
    private final PublishedKey published;
    private volatile Ed25519Signer fastest;

    public SigningKey(String version, Ed25519PrivateKeyParameters privateKey) {
        if (version == null || version.isBlank()) {
            throw new IllegalArgumentException("a key needs a version");
        }
        this.version = version;
        this.privateKey = privateKey;
        this.publicKey = privateKey.generatePublicKey();
        this.published = PublishedKey.ed25519(version, publicKey.getEncoded()); // checks the point once
    }

    public static SigningKey generate(String version, SecureRandom random) {
        return new SigningKey(version, new Ed25519PrivateKeyParameters(random));
    }

    public String version() {
        return version;
    }

    Ed25519PrivateKeyParameters privateKey() {
        return privateKey;
    }

    public byte[] rawPublicKey() {
        return publicKey.getEncoded();
    }

    public PublishedKey published() {
        return published;
    }

    /**
     * The fastest signer for this key here (AWS-LC where it loads, else Bouncy Castle), made once:
     * what receipts are signed with. Same bytes as {@link #sign}.
     */
    public Ed25519Signer signer() {
        Ed25519Signer signer = fastest;
        if (signer == null) {
            signer = FastEd25519.signer(this);
            fastest = signer;
        }
        return signer;
    }

    /**
     * Pure Ed25519 (RFC 8032, no context, no prehash) with Bouncy Castle: a 64-byte signature. The
     * portable reference; {@link #signer()} is what production signs with.
     */
    public byte[] sign(byte[] message) {
        byte[] signature = new byte[Ed25519PrivateKeyParameters.SIGNATURE_SIZE];
        privateKey.sign(Ed25519.Algorithm.Ed25519, publicKey, null, message, 0, message.length, signature, 0);
        return signature;
    }
}
