package dev.proofline.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class VerificationIdsTest {
    private final VerificationIds ids = new VerificationIds("deployment A's id key".getBytes(StandardCharsets.UTF_8));
    private final VerificationIds other = new VerificationIds("deployment B's id key".getBytes(StandardCharsets.UTF_8));

    @Test
    void stableForOnePlaceDifferentEverywhereElseAndAcrossDeployments() {
        assertEquals(ids.of("agent-outputs", 1, 42), ids.of("agent-outputs", 1, 42));
        Set<UUID> seen = new HashSet<>();
        for (int p = 0; p < 3; p++) {
            for (long o = 0; o < 1000; o++) {
                seen.add(ids.of("agent-outputs", p, o));
            }
        }
        assertEquals(3000, seen.size());
        assertNotEquals(ids.of("agent-outputs", 1, 42), other.of("agent-outputs", 1, 42));
        // The old name-based id of the same place is not what a keyed deployment issues.
        assertNotEquals(
                UUID.nameUUIDFromBytes("proofline:agent-outputs/1/42".getBytes(StandardCharsets.UTF_8)),
                ids.of("agent-outputs", 1, 42));
    }

    @Test
    void printedAsAnRfc9562Version8Uuid() {
        UUID id = ids.of("agent-outputs", 0, 0);
        assertEquals(8, id.version());
        assertEquals(2, id.variant());
    }

    /** The id is the HMAC's first 128 bits with the version and variant set, however many ids a thread made before. */
    @Test
    void theHmacOfThePlaceUnderTheKey() throws Exception {
        byte[] key = "deployment A's id key".getBytes(StandardCharsets.UTF_8);
        for (long offset = 0; offset < 50; offset++) {
            javax.crypto.Mac fresh = javax.crypto.Mac.getInstance("HmacSHA256");
            fresh.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
            byte[] mac = fresh.doFinal(("proofline:agent-outputs/2/" + offset).getBytes(StandardCharsets.UTF_8));
            mac[6] = (byte) ((mac[6] & 0x0f) | 0x80);
            mac[8] = (byte) ((mac[8] & 0x3f) | 0x80);
            java.nio.ByteBuffer bits = java.nio.ByteBuffer.wrap(mac);
            assertEquals(new UUID(bits.getLong(), bits.getLong()), ids.of("agent-outputs", 2, offset));
        }
    }
}
