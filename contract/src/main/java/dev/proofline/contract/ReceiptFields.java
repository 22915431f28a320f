package dev.proofline.contract;

/** Field names of a signed receipt ({@code docs/receipt.md}) that clients and the topology read. */
public final class ReceiptFields {
    public static final String VERIFICATION_ID = "verification_id";
    public static final String TASK_ID = "task_id";
    public static final String AGENT_ID = "agent_id";
    public static final String RESULT = "result";
    public static final String VERIFIED_AT = "verified_at";
    public static final String OUTPUT_HASH = "output_hash";
    public static final String SCHEMA_HASH = "schema_hash";
    public static final String RULES_HASH = "rules_hash";
    public static final String ATTESTATION = "attestation";
    public static final String KEY_VERSION = "key_version";

    /** The values of {@link #RESULT}. */
    public static final String PASS = "pass";

    public static final String FAIL = "fail";

    private ReceiptFields() {}
}
