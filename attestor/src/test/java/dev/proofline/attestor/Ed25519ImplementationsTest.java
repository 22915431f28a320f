package dev.proofline.attestor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * AWS-LC and Bouncy Castle sign byte for byte alike (Ed25519 is deterministic): on the attestation
 * messages of every conformance receipt and on 10,000 random messages of random lengths, under
 * random keys. Where AWS-LC does not load, the test says so and skips; production then signs with
 * Bouncy Castle.
 */
class Ed25519ImplementationsTest {
    @Test
    void awsLcAndBouncyCastleGiveIdenticalSignatures() {
        Assumptions.assumeTrue(
                FastEd25519.available(),
                () -> "SKIPPED: AWS-LC does not load here ("
                        + FastEd25519.unavailableBecause()
                                .map(Throwable::toString)
                                .orElse("")
                        + "), so only Bouncy Castle signs");
        SecureRandom random = new SecureRandom();
        List<byte[]> messages = new ArrayList<>();
        for (JsonNode name : Conformance.expected().get("receipts_that_must_verify")) {
            ObjectNode receipt = (ObjectNode) Conformance.json(name.asString()).deepCopy();
            JsonNode attestation = receipt.remove("attestation");
            messages.add(AttestationMessage.of(
                    AttestationContext.VERIFY,
                    attestation.get("key_version").asString(),
                    attestation.get("timestamp").asString(),
                    receipt));
        }
        Random lengths = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            byte[] message = new byte[lengths.nextInt(4096)];
            random.nextBytes(message);
            messages.add(message);
        }
        int compared = 0;
        for (int k = 0; k < 20; k++) {
            SigningKey key = SigningKey.generate("v" + k, random);
            Ed25519Signer fast = FastEd25519.signer(key);
            assertTrue(fast.implementation().startsWith("AWS-LC"), fast.implementation());
            for (int i = k; i < messages.size(); i += 20) {
                assertArrayEquals(key.sign(messages.get(i)), fast.sign(messages.get(i)), "message " + i);
                compared++;
            }
        }
        assertEquals(messages.size(), compared);
    }

    @Test
    void aKeyRingSignsWithTheFastestAndItsReceiptsVerify() {
        SigningKey key = SigningKey.generate("v1-test", new SecureRandom());
        Attestor attestor = new Attestor(KeyRing.of(key));
        ObjectNode response =
                StrictJson.NODES.objectNode().put("result", "pass").put("verified_at", "t");
        JsonNode signed = attestor.attest(response, AttestationContext.VERIFY, "t");
        assertTrue(new ReceiptVerifier(KeyRing.of(key).trustedKeys())
                .verifySignature(signed, AttestationContext.VERIFY)
                .valid());
        assertEquals(FastEd25519.available(), key.signer().implementation().startsWith("AWS-LC"));
    }
}
