package dev.proofline.query.payment;

import dev.proofline.attestor.StrictJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An x402 facilitator over HTTP: {@code POST /verify} and {@code POST /settle}, each with
 * {@code {x402Version, paymentPayload, paymentRequirements}}. A facilitator that cannot be reached,
 * or answers anything but JSON, is {@link Unavailable}: nothing was charged.
 */
public final class Facilitator {
    /** The facilitator could not answer. */
    public static final class Unavailable extends Exception {
        public Unavailable(String message) {
            super(message);
        }
    }

    private final URI base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public Facilitator(String url) {
        this.base = URI.create(url.replaceAll("/+$", "") + "/");
    }

    /** VerifyResponse: {isValid, invalidReason?, payer?}. */
    public JsonNode verify(ObjectNode payload, ObjectNode requirements) throws Unavailable, InterruptedException {
        return post("verify", "isValid", payload, requirements);
    }

    /** SettlementResponse: {success, errorReason?, transaction, network, payer}. */
    public JsonNode settle(ObjectNode payload, ObjectNode requirements) throws Unavailable, InterruptedException {
        return post("settle", "success", payload, requirements);
    }

    /**
     * @param verdict the boolean field every answer of {@code path} carries: an answer without it (a
     *     401 for a facilitator key not sent, a proxy's error page in JSON) is no verdict on the
     *     payment, and is taken as the facilitator being unavailable
     */
    private JsonNode post(String path, String verdict, ObjectNode payload, ObjectNode requirements)
            throws Unavailable, InterruptedException {
        ObjectNode body = StrictJson.NODES.objectNode();
        body.put("x402Version", X402.VERSION);
        body.set("paymentPayload", payload);
        body.set("paymentRequirements", requirements);
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(base.resolve(path))
                            .header("Content-Type", "application/json")
                            .timeout(Duration.ofSeconds(30))
                            .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode answer;
            try {
                answer = StrictJson.parse(response.body());
            } catch (RuntimeException e) {
                throw new Unavailable(
                        "the facilitator's /" + path + " answered " + response.statusCode() + ", not JSON");
            }
            if (response.statusCode() >= 500) {
                throw new Unavailable("the facilitator's /" + path + " answered " + response.statusCode());
            }
            if (!answer.path(verdict).isBoolean()) {
                throw new Unavailable(
                        "the facilitator's /" + path + " answered " + response.statusCode() + " without " + verdict);
            }
            return answer;
        } catch (IOException e) {
            throw new Unavailable(
                    "the facilitator cannot be reached: " + e.getClass().getSimpleName());
        }
    }
}
