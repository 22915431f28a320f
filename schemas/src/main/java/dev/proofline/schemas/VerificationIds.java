package dev.proofline.schemas;

import dev.proofline.contract.KeyedHmac;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The verification id of a record: HMAC-SHA256, under a key derived from the deployment's secret,
 * of where the record was read (topic, partition, offset), its first 128 bits printed as a UUID
 * (RFC 9562 version 8, "custom"). A record replayed after a crash, or on another instance of the
 * same deployment, gets the same id, so consumers outside Kafka transactions can de-duplicate on
 * it; without the secret no id can be predicted ({@code docs/access.md}).
 */
public final class VerificationIds {
    private final KeyedHmac hmac;

    /** @param key the deployment's key for this purpose (at least 16 bytes) */
    public VerificationIds(byte[] key) {
        if (key.length < 16) {
            throw new IllegalArgumentException("a verification-id key needs at least 16 bytes");
        }
        this.hmac = new KeyedHmac(key);
    }

    public UUID of(String topic, int partition, long offset) {
        byte[] mac = hmac.of(("proofline:" + topic + "/" + partition + "/" + offset).getBytes(StandardCharsets.UTF_8));
        mac[6] = (byte) ((mac[6] & 0x0f) | 0x80); // version 8
        mac[8] = (byte) ((mac[8] & 0x3f) | 0x80); // the RFC 9562 variant
        ByteBuffer bits = ByteBuffer.wrap(mac);
        return new UUID(bits.getLong(), bits.getLong());
    }
}
