package dev.proofline.contract;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 under one key, for the hot paths that take one per record (verification ids,
 * submitter stamps). A {@link Mac} is not thread-safe, and looking one up and keying it costs more
 * than the HMAC of a short message, so each thread keeps one, keyed once; {@code doFinal} leaves it
 * ready for the next message.
 */
public final class KeyedHmac {
    private static final String ALGORITHM = "HmacSHA256";

    private final ThreadLocal<Mac> macs;

    public KeyedHmac(byte[] key) {
        SecretKeySpec spec = new SecretKeySpec(key.clone(), ALGORITHM);
        this.macs = ThreadLocal.withInitial(() -> {
            try {
                Mac mac = Mac.getInstance(ALGORITHM);
                mac.init(spec);
                return mac;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("every Java runtime has " + ALGORITHM, e);
            }
        });
    }

    /** The 32-byte HMAC of {@code message}. */
    public byte[] of(byte[] message) {
        return macs.get().doFinal(message);
    }
}
