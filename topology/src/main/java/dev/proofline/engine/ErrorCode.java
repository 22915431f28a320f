package dev.proofline.engine;

/**
 * Every error code Proofline answers with (SPEC section 6): the one table the docs are made from.
 * Codes are stable; clients may switch on them.
 */
public enum ErrorCode {
    INVALID_REQUEST("invalid_request", 422, false, "fix_request_fields",
            "The request is not a valid verification request; `fields` names each problem and its fix."),
    PAYLOAD_TOO_LARGE("payload_too_large", 413, false, "shrink_request",
            "The request is larger than the configured limit (1 MiB by default), which the message states."),
    VERIFICATION_FAILED("verification_failed", 500, false, "report_to_operator",
            "The request was valid but the verifier failed on it; the record is kept on the dead-letter topic."),
    PLACEHOLDER_AGENT_ID("placeholder_agent_id", 400, false, "fix_request_fields",
            "The agent id in the path is a placeholder ({agent_id}, :agent_id or empty); put a real agent id there."),
    NOT_READY("not_ready", 503, true, "retry_later",
            "Scores are being moved between instances (a rebalance) or restored; retry after retry_after seconds."),
    RECEIPT_PENDING("receipt_pending", 504, true, "retry_later",
            "The request was accepted and will be verified, but its receipt was not ready in time; it lands on the receipts topic under the verification_id the message names, and GET /receipts/{verification_id} returns it."),
    BROKER_UNAVAILABLE("broker_unavailable", 503, true, "retry_later",
            "Kafka did not acknowledge the request in time, so it was most likely not accepted (if it was, its receipt lands on the receipts topic like any other); retry after retry_after seconds."),
    RECEIPT_NOT_FOUND("receipt_not_found", 404, true, "retry_later",
            "No receipt has this verification_id: it may still be in the pipeline (retry shortly), its request may have been refused (dead-letter topic), or it is older than the receipt index keeps.");

    private final String code;
    private final int status;
    private final boolean retryable;
    private final String nextAction;
    private final String description;

    ErrorCode(String code, int status, boolean retryable, String nextAction, String description) {
        this.code = code;
        this.status = status;
        this.retryable = retryable;
        this.nextAction = nextAction;
        this.description = description;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }

    public boolean retryable() {
        return retryable;
    }

    public String nextAction() {
        return nextAction;
    }

    public String description() {
        return description;
    }
}
