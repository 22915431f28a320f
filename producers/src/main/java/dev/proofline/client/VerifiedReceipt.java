package dev.proofline.client;

import dev.proofline.attestor.StrictJson;
import tools.jackson.databind.JsonNode;

/** A receipt whose Ed25519 signature checked out against the service's published keys. */
public record VerifiedReceipt(String verificationId, String taskId, String agentId, String result, String signedJson) {

    static VerifiedReceipt of(JsonNode receipt, String signedJson) {
        return new VerifiedReceipt(
                receipt.path("verification_id").asString(null),
                receipt.path("task_id").asString(null),
                receipt.path("agent_id").isNull()
                        ? null
                        : receipt.path("agent_id").asString(null),
                receipt.path("result").asString(null),
                signedJson);
    }

    public boolean passed() {
        return "pass".equals(result);
    }

    /** The receipt as a JSON tree, exactly as signed. */
    public JsonNode json() {
        return StrictJson.parse(signedJson);
    }
}
