package dev.proofline.client;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.CanonicalJsonException;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.StrictJson;
import dev.proofline.attestor.VerificationOutcome;
import tools.jackson.databind.JsonNode;

/** Checks a receipt's signature offline against the agent-card's keys. */
final class ReceiptChecker {
    private final AgentCardKeys keys;

    ReceiptChecker(AgentCardKeys keys) {
        this.keys = keys;
    }

    /** The verified receipt, or an {@link InvalidReceiptException} saying why it is not one. */
    VerifiedReceipt check(String signedJson) {
        JsonNode receipt;
        try {
            receipt = StrictJson.parse(signedJson);
        } catch (CanonicalJsonException e) {
            throw new InvalidReceiptException("not JSON: " + e.getMessage(), signedJson);
        }
        String keyVersion = receipt.path("attestation").path("key_version").asString("");
        VerificationOutcome outcome =
                new ReceiptVerifier(keys.forVersion(keyVersion)).verifySignature(receipt, AttestationContext.VERIFY);
        if (!outcome.valid()) {
            throw new InvalidReceiptException(outcome.reason(), signedJson);
        }
        return VerifiedReceipt.of(receipt, signedJson);
    }
}
