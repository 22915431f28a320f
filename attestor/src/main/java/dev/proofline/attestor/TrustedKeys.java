package dev.proofline.attestor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The public keys a verifier trusts. Either a set of versioned keys (the agent-card's list), or one
 * bare key given without a version (the CLI's {@code --public-key}), which is tried whatever version
 * the receipt names; the version is signed too, so this weakens nothing.
 */
public final class TrustedKeys {
    private final Map<String, byte[]> byVersion;
    private final byte[] anyVersion;

    private TrustedKeys(Map<String, byte[]> byVersion, byte[] anyVersion) {
        this.byVersion = byVersion;
        this.anyVersion = anyVersion;
    }

    public static TrustedKeys of(List<PublishedKey> keys) {
        Map<String, byte[]> byVersion = new LinkedHashMap<>();
        keys.forEach(k -> byVersion.put(k.keyVersion(), k.rawKey()));
        return new TrustedKeys(byVersion, null);
    }

    public static TrustedKeys ofAnyVersion(byte[] rawPublicKey) {
        if (rawPublicKey.length != 32) {
            throw new IllegalArgumentException("an Ed25519 public key is 32 bytes, this one is " + rawPublicKey.length);
        }
        return new TrustedKeys(Map.of(), rawPublicKey.clone());
    }

    Optional<byte[]> forVersion(String version) {
        byte[] key = byVersion.get(version);
        return Optional.ofNullable(key != null ? key : anyVersion);
    }
}
