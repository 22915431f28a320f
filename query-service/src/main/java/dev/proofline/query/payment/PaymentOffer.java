package dev.proofline.query.payment;

import tools.jackson.databind.JsonNode;

/** What a caller sent to pay with: nothing, a {@code Payment-Signature} header, or MCP {@code _meta}. */
public sealed interface PaymentOffer {
    PaymentOffer NONE = new None();

    record None() implements PaymentOffer {}

    /** Standard base64 of a PaymentPayload, as the HTTP header carries it. */
    record Header(String base64) implements PaymentOffer {}

    /** The PaymentPayload object itself, as MCP's {@code _meta["x402/payment"]} carries it. */
    record Mcp(JsonNode payload) implements PaymentOffer {}
}
