package dev.proofline.query.payment;

import dev.proofline.attestor.CanonicalJson;
import dev.proofline.attestor.CanonicalJsonException;
import dev.proofline.attestor.StrictJson;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The x402 version 2 wire forms Proofline speaks (the public {@code coinbase/x402} specification,
 * {@code specs/x402-specification-v2.md} and {@code specs/transports-v2/}): each HTTP header is
 * standard base64 of a JSON object; over MCP the same objects travel in {@code _meta}.
 */
public final class X402 {
    public static final int VERSION = 2;
    public static final String PAYMENT_REQUIRED = "Payment-Required";
    public static final String PAYMENT_SIGNATURE = "Payment-Signature";
    public static final String PAYMENT_RESPONSE = "Payment-Response";
    /** MCP: the client's PaymentPayload in a tools/call request's {@code _meta}. */
    public static final String MCP_PAYMENT = "x402/payment";
    /** MCP: the SettlementResponse in a tool result's {@code _meta}. */
    public static final String MCP_PAYMENT_RESPONSE = "x402/payment-response";

    private X402() {}

    /** PaymentRequired: {x402Version, error, resource {url, description, mimeType}, accepts}. */
    public static ObjectNode paymentRequired(String error, String url, String description, ObjectNode accepts) {
        ObjectNode required = StrictJson.NODES.objectNode();
        required.put("x402Version", VERSION);
        required.put("error", error);
        required.putObject("resource")
                .put("url", url)
                .put("description", description)
                .put("mimeType", "application/json");
        required.putArray("accepts").add(accepts);
        return required;
    }

    public static String encode(JsonNode value) {
        return Base64.getEncoder().encodeToString(value.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A Payment-Signature header's PaymentPayload.
     *
     * @throws IllegalArgumentException when it is not base64 of a JSON object with
     *     {@code x402Version}, {@code accepted} and {@code payload}
     */
    public static ObjectNode decodePayload(String header) {
        byte[] json;
        try {
            json = Base64.getDecoder().decode(header.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("is not standard base64");
        }
        return checkPayload(StrictJsonObjects.parse(json));
    }

    /** The same checks for a PaymentPayload given as JSON (MCP {@code _meta}). */
    public static ObjectNode checkPayload(JsonNode payload) {
        if (!(payload instanceof ObjectNode object)) {
            throw new IllegalArgumentException("is not a JSON object");
        }
        if (!object.path("x402Version").isIntegralNumber()
                || !object.path("accepted").isObject()
                || !object.path("payload").isObject()) {
            throw new IllegalArgumentException("lacks x402Version, accepted or payload");
        }
        // Its identity and its terms are read through canonical JSON: a number beyond a double's range
        // or a lone surrogate has none, so it is refused here rather than failing there.
        try {
            CanonicalJson.toCanonicalBytes(object);
        } catch (CanonicalJsonException e) {
            throw new IllegalArgumentException("holds a value with no canonical JSON form");
        }
        return object;
    }

    /** Small helper: strict parsing of untrusted bytes into a JSON tree, or an IllegalArgumentException. */
    static final class StrictJsonObjects {
        private StrictJsonObjects() {}

        static JsonNode parse(byte[] json) {
            try {
                return StrictJson.parse(json);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("is not JSON");
            }
        }
    }
}
