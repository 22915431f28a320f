package dev.proofline.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proofline.attestor.DeploymentSecret;
import dev.proofline.schemas.VerificationIds;
import org.junit.jupiter.api.Test;

/** The worked example of docs/kafka.md ("Verification ids"), whose Python snippet prints the same id. */
class VerificationIdVectorTest {
    @Test
    void anAllZeroSecretGivesTheDocumentedId() {
        VerificationIds ids =
                new VerificationIds(DeploymentSecret.of(new byte[32]).keyFor("verification-ids"));
        assertEquals(
                "f32a5a30-bba3-81fa-85b1-237bd36d92fc",
                ids.of("agent-outputs", 0, 42).toString());
    }
}
