package dev.proofline.topology;

import dev.proofline.schemas.avro.Receipt;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A signed receipt as a topic record: routing fields beside the exact signed JSON. */
public final class Receipts {
    private Receipts() {
    }

    public static Receipt toRecord(ObjectNode signed, String correlationId) {
        return Receipt.newBuilder()
                .setVerificationId(text(signed, "verification_id"))
                .setTaskId(text(signed, "task_id"))
                .setAgentId(text(signed, "agent_id"))
                .setResult(text(signed, "result"))
                .setVerifiedAt(text(signed, "verified_at"))
                .setKeyVersion(signed.get("attestation").get("key_version").asString())
                .setOutputHash(text(signed, "output_hash"))
                .setSchemaHash(text(signed, "schema_hash"))
                .setRulesHash(text(signed, "rules_hash"))
                .setCorrelationId(correlationId)
                .setSignedJson(signed.toString())
                .build();
    }

    /** The record key: the agent id, or the task id for a receipt without one, so an agent's receipts stay in order. */
    public static String key(Receipt receipt) {
        return receipt.getAgentId() != null ? receipt.getAgentId() : receipt.getTaskId();
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }
}
