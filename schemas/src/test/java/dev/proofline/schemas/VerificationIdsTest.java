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
}
