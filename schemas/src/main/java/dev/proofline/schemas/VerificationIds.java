package dev.proofline.schemas;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The verification id of a record: HMAC-SHA256, under a key derived from the deployment's secret,
 * of where the record was read (topic, partition, offset), its first 128 bits printed as a UUID
 * (RFC 9562 version 8, "custom"). A record replayed after a crash, or on another instance of the
 * same deployment, gets the same id, so consumers outside Kafka transactions can de-duplicate on
 * it; without the secret no id can be predicted ({@code docs/access.md}).
 */
public final class VerificationIds {
    // A Mac is not thread-safe, and looking one up and keying it costs more than the HMAC of a short
    // text: each thread keeps one, keyed once (doFinal leaves it ready for the next message).
    private final ThreadLocal<Mac> macs;

    /** @param key the deployment's key for this purpose (at least 16 bytes) */
    public VerificationIds(byte[] key) {
        if (key.length < 16) {
            throw new IllegalArgumentException("a verification-id key needs at least 16 bytes");
        }
        SecretKeySpec spec = new SecretKeySpec(key.clone(), "HmacSHA256");
        this.macs = ThreadLocal.withInitial(() -> {
            try {
                Mac hmac = Mac.getInstance("HmacSHA256");
                hmac.init(spec);
                return hmac;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("every Java runtime has HmacSHA256", e);
            }
        });
    }

    public UUID of(String topic, int partition, long offset) {
        byte[] mac = macs.get()
                .doFinal(("proofline:" + topic + "/" + partition + "/" + offset).getBytes(StandardCharsets.UTF_8));
        mac[6] = (byte) ((mac[6] & 0x0f) | 0x80); // version 8
        mac[8] = (byte) ((mac[8] & 0x3f) | 0x80); // the RFC 9562 variant
        ByteBuffer bits = ByteBuffer.wrap(mac);
        return new UUID(bits.getLong(), bits.getLong());
    }
}
