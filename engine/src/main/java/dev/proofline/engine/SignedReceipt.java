package dev.proofline.engine;

import dev.proofline.attestor.Attestation;
import dev.proofline.attestor.StrictJson;
import java.nio.charset.StandardCharsets;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * A signed receipt: the exact bytes that are published (compact JSON, keys in the documented order,
 * the attestation last), and the fields a receipt's record carries beside them, read from the
 * values it was written from rather than parsed back.
 */
public final class SignedReceipt {
    private final UnsignedReceipt body;
    private final Attestation attestation;
    private final byte[] json;

    SignedReceipt(UnsignedReceipt body, Attestation attestation, byte[] json) {
        this.body = body;
        this.attestation = attestation;
        this.json = json;
    }

    /** The published receipt; its signature covers the RFC 8785 form of all but its attestation. */
    public String json() {
        return new String(json, StandardCharsets.UTF_8);
    }

    /** The published receipt as a tree, for tools and tests: parsed from its bytes. */
    public ObjectNode tree() {
        return (ObjectNode) StrictJson.parse(json);
    }

    public String result() {
        return body.result();
    }

    public String verificationId() {
        return body.verificationId();
    }

    public String taskId() {
        return body.taskId();
    }

    /** Null when the request named no agent. */
    public String agentId() {
        return body.agentId();
    }

    public String verifiedAt() {
        return body.verifiedAt();
    }

    public String keyVersion() {
        return attestation.keyVersion();
    }

    public String outputHash() {
        return body.hashes().outputHash();
    }

    public String schemaHash() {
        return body.hashes().schemaHash();
    }

    public String rulesHash() {
        return body.hashes().rulesHash();
    }

    /** The request's hash; null in a compact receipt, which does not carry it. */
    public String requestHash() {
        return body.full() ? body.hashes().requestHash() : null;
    }

    /** The checks that failed it ({@code summary.blocking_checks}), in the receipt's order. */
    public List<String> blockingChecks() {
        return body.blockingChecks();
    }

    /** Whether it counts toward its agent's score ({@code scoring.counted}, true when absent). */
    public boolean counted() {
        return body.scoring().counted();
    }
}
