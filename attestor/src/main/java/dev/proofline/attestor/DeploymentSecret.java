package dev.proofline.attestor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The deployment's own secret, kept beside the signing keys ({@code keys.dir/deployment.secret}, 32
 * random bytes, mode 0600). Every instance of a deployment shares it, as it shares the keys. It is
 * never used directly: each purpose (receipt ids, caller records, submitter headers, instance
 * calls) gets its own key derived with HMAC-SHA256 under a label, so a value made for one purpose
 * is worthless for another.
 */
public final class DeploymentSecret {
    public static final String FILE = "deployment.secret";
    private static final int BYTES = 32;

    private final byte[] secret;

    private DeploymentSecret(byte[] secret) {
        this.secret = secret.clone();
    }

    /** Reads the secret from the keys directory, creating it (owner-only) on first use. */
    public static DeploymentSecret openOrCreate(Path keysDir) throws IOException {
        Files.createDirectories(keysDir);
        Path file = keysDir.resolve(FILE);
        if (!Files.exists(file)) {
            byte[] fresh = new byte[BYTES];
            new SecureRandom().nextBytes(fresh);
            // Another instance starting at the same moment on a shared keys.dir may be first: its
            // secret is then the one, read whole below.
            OwnerOnlyFiles.createWhole(
                    file, (Base64.getEncoder().encodeToString(fresh) + "\n").getBytes(StandardCharsets.US_ASCII));
        }
        return read(file);
    }

    /** Reads an existing secret; a tool acting for a running deployment must never make a new one. */
    public static DeploymentSecret open(Path keysDir) throws IOException {
        Path file = keysDir.resolve(FILE);
        if (!Files.exists(file)) {
            throw new java.nio.file.NoSuchFileException(
                    file.toString(), null, "no deployment secret: start the deployment with 'up' first");
        }
        return read(file);
    }

    /** A secret from its bytes (tests, and two deployments that must differ). */
    public static DeploymentSecret of(byte[] secret) {
        if (secret.length < 16) {
            throw new IllegalArgumentException("a deployment secret needs at least 16 bytes");
        }
        return new DeploymentSecret(secret);
    }

    private static DeploymentSecret read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + " is not base64", e);
        }
        if (bytes.length < 16) {
            throw new IOException(file + " holds fewer than 16 bytes");
        }
        return new DeploymentSecret(bytes);
    }

    /** The key for one purpose: HMAC-SHA256(secret, "proofline/" + purpose). */
    public byte[] keyFor(String purpose) {
        return hmac(secret, ("proofline/" + purpose).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Says which secret this is without revealing it: the first 16 hex digits of a key derived for
     * this purpose alone. Instances compare fingerprints to find one started with another secret.
     */
    public String fingerprint() {
        return Sha256.hex(keyFor("fingerprint")).substring(0, 16);
    }

    /** HMAC-SHA256 of a message under a key. */
    public static byte[] hmac(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has HmacSHA256", e);
        }
    }

    /** Compares two MACs in time independent of where they differ. */
    public static boolean sameMac(byte[] a, byte[] b) {
        return a != null && b != null && MessageDigest.isEqual(a, b);
    }

    @Override
    public String toString() {
        return "DeploymentSecret[fingerprint " + fingerprint() + "]"; // never the secret itself
    }
}
