package dev.proofline.topology;

import dev.proofline.engine.ReceiptAssembler;
import dev.proofline.engine.SignedReceipt;
import dev.proofline.schemas.avro.Receipt;

/** A signed receipt as a topic record: routing fields beside the exact signed JSON. */
public final class Receipts {
    /**
     * Room for everything in a receipt record but its signed JSON, about 5 KiB at most: the key and
     * the ids beside it (200 characters each, up to 800 bytes), the hashes, the submitter, the
     * correlation id (1 KiB, twice with its header), the wire format's prefix and the record's and
     * its batch's framing.
     */
    static final int RECORD_ROOM_BYTES = 8 * 1024;

    /** The largest receipt record: the largest signed receipt and the room around it. */
    public static final int LARGEST_RECORD_BYTES = ReceiptAssembler.LARGEST_RECEIPT_BYTES + RECORD_ROOM_BYTES;

    private Receipts() {}

    public static Receipt toRecord(SignedReceipt signed, String correlationId) {
        return toRecord(signed, correlationId, null);
    }

    /**
     * @param submitter who submitted the request ({@code docs/access.md}), kept beside the receipt so
     *                  only they (and operators) can read it back; null when unknown
     */
    public static Receipt toRecord(SignedReceipt signed, String correlationId, String submitter) {
        return Receipt.newBuilder()
                .setVerificationId(signed.verificationId())
                .setTaskId(signed.taskId())
                .setAgentId(signed.agentId())
                .setResult(signed.result())
                .setVerifiedAt(signed.verifiedAt())
                .setKeyVersion(signed.keyVersion())
                .setOutputHash(signed.outputHash())
                .setSchemaHash(signed.schemaHash())
                .setRulesHash(signed.rulesHash())
                .setCorrelationId(correlationId)
                .setSignedJson(signed.json())
                .setSubmittedBy(submitter)
                .setCounted(signed.counted())
                .build();
    }

    /** The record key: the agent id, or the task id for a receipt without one, so an agent's receipts stay in order. */
    public static String key(Receipt receipt) {
        return receipt.getAgentId() != null ? receipt.getAgentId() : receipt.getTaskId();
    }
}
