package dev.proofline.schemas;

import dev.proofline.schemas.avro.Receipt;

/** Receipt records for tests that need one on a topic, not a signed receipt: fixed fields, a chosen few. */
public final class TestReceipts {
    private TestReceipts() {}

    /** Receipt {@code i} of {@code agent}: verification id {@code id-i}, its signed JSON naming that id. */
    public static Receipt numbered(int i, String agent) {
        return carrying("id-" + i, "t-" + i, agent, "{\"verification_id\":\"id-" + i + "\"}");
    }

    public static Receipt carrying(String verificationId, String taskId, String agent, String signedJson) {
        return Receipt.newBuilder()
                .setVerificationId(verificationId)
                .setTaskId(taskId)
                .setAgentId(agent)
                .setResult("pass")
                .setVerifiedAt("2026-12-01T10:00:00.000000+00:00")
                .setKeyVersion("v1")
                .setOutputHash("o")
                .setSchemaHash("s")
                .setRulesHash("r")
                .setCorrelationId(null)
                .setSignedJson(signedJson)
                .build();
    }
}
