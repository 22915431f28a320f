package dev.proofline.query.payment;

import dev.proofline.attestor.StrictJson;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * What this deployment asks to be paid (the {@code payment.*} settings): x402 "exact" payments of an
 * EIP-3009 token on one network (CAIP-2), to one address, at one price per paid resource (atomic
 * units). Without a facilitator, payment is off.
 *
 * <p>{@code minValiditySeconds} is how long an authorization must still be valid when it arrives:
 * it is settled only after the pipeline has signed the receipt, so one that expires in between
 * would let a request be verified, and its verdict counted, unpaid.
 */
public record PaymentTerms(
        Optional<String> facilitatorUrl,
        String network,
        String asset,
        String assetName,
        String assetVersion,
        String payTo,
        long priceVerify,
        long priceScore,
        int maxTimeoutSeconds,
        int minValiditySeconds) {

    public PaymentTerms {
        if (facilitatorUrl.isPresent() && minValiditySeconds >= maxTimeoutSeconds) {
            throw new IllegalArgumentException("payment.max.timeout.seconds (" + maxTimeoutSeconds
                    + ") must exceed the " + minValiditySeconds + " s an authorization must still be valid on"
                    + " arrival: verify.timeout.seconds plus " + SETTLE_SECONDS + " s to settle");
        }
    }

    /** The time allowed for a settlement, after the receipt, in an authorization's remaining validity. */
    public static final int SETTLE_SECONDS = 10;

    public boolean enabled() {
        return facilitatorUrl.isPresent();
    }

    /** One PaymentRequirements object (x402 version 2, scheme "exact") for a price. */
    public ObjectNode requirements(long amount) {
        ObjectNode requirements = StrictJson.NODES.objectNode();
        requirements.put("scheme", "exact");
        requirements.put("network", network);
        requirements.put("amount", Long.toString(amount));
        requirements.put("asset", asset);
        requirements.put("payTo", payTo);
        requirements.put("maxTimeoutSeconds", maxTimeoutSeconds);
        requirements.putObject("extra").put("name", assetName).put("version", assetVersion);
        return requirements;
    }
}
