package dev.proofline.client;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.CanonicalJsonException;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.StrictJson;
import dev.proofline.attestor.TrustedKeys;
import dev.proofline.attestor.VerificationOutcome;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * Checks a receipt offline: its signature against the agent-card's keys (or keys the caller pinned) and, given the request it
 * answers, every hash it carries against that request ({@code docs/signing.md}, steps 5 and 6).
 */
final class ReceiptChecker {
    /** The keys trusted for a receipt that names this key version. */
    private final Function<String, TrustedKeys> keys;

    ReceiptChecker(AgentCardKeys keys) {
        this(keys::forVersion);
    }

    /** Checks against these keys alone, whatever the agent-card says: keys pinned by the caller. */
    ReceiptChecker(TrustedKeys pinned) {
        this(version -> pinned);
    }

    private ReceiptChecker(Function<String, TrustedKeys> keys) {
        this.keys = keys;
    }

    /** The verified receipt, or an {@link InvalidReceiptException} saying why it is not one. */
    VerifiedReceipt check(String signedJson) {
        return check(signedJson, null);
    }

    /**
     * The same, and when {@code request} is not null the receipt must be about it: a genuine receipt
     * for other data is refused as well.
     */
    VerifiedReceipt check(String signedJson, byte[] request) {
        JsonNode receipt;
        try {
            receipt = StrictJson.parse(signedJson);
        } catch (CanonicalJsonException e) {
            throw new InvalidReceiptException("not JSON: " + e.getMessage(), signedJson);
        }
        JsonNode keyVersion = receipt.path("attestation").path("key_version");
        if (!keyVersion.isString()) {
            // No key to look up, so no reason to fetch the card: the signature check says what is missing.
            throw new InvalidReceiptException(
                    new ReceiptVerifier(TrustedKeys.of(List.of()))
                            .verifySignature(receipt, AttestationContext.VERIFY)
                            .reason(),
                    signedJson);
        }
        VerificationOutcome outcome = new ReceiptVerifier(keys.apply(keyVersion.asString()))
                .verifySignature(receipt, AttestationContext.VERIFY);
        if (outcome.valid() && request != null) {
            outcome = aboutTheRequest(receipt, request);
        }
        if (!outcome.valid()) {
            throw new InvalidReceiptException(outcome.reason(), signedJson);
        }
        return VerifiedReceipt.of(receipt, signedJson);
    }

    private static VerificationOutcome aboutTheRequest(JsonNode receipt, byte[] request) {
        JsonNode parsed;
        try {
            parsed = StrictJson.parse(request);
        } catch (CanonicalJsonException e) {
            return VerificationOutcome.invalid("the request is not JSON, so no receipt is about it: " + e.getMessage());
        }
        try {
            return ReceiptVerifier.compareHashes(receipt, parsed);
        } catch (RuntimeException e) {
            return VerificationOutcome.invalid("the request has no hashes to compare: " + e.getMessage());
        }
    }
}
