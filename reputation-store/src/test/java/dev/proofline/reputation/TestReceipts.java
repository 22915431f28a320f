package dev.proofline.reputation;

import dev.proofline.schemas.avro.Receipt;

/** Receipt records as the pipeline writes them, with only what the score topology reads filled in. */
public final class TestReceipts {
    private TestReceipts() {}

    /** Receipt {@code i} of {@code agent}, verified at {@code verifiedAt} (the receipt's own text form). */
    public static Receipt receipt(int i, String agent, String result, String verifiedAt) {
        return Receipt.newBuilder()
                .setVerificationId("id-" + i)
                .setTaskId("t-" + i)
                .setAgentId(agent)
                .setResult(result)
                .setVerifiedAt(verifiedAt)
                .setKeyVersion("v1")
                .setOutputHash("o")
                .setSchemaHash("s")
                .setRulesHash("r")
                .setCorrelationId(null)
                .setSignedJson("{}")
                .build();
    }

    /** Receipt {@code i}, verified {@code i} seconds after 2026-11-29T10:00:00. */
    public static Receipt receipt(int i, String agent, String result) {
        return receipt(i, agent, result, String.format("2026-11-29T10:00:%02d.000000+00:00", i));
    }
}
