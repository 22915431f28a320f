package dev.proofline.contract;

/**
 * Every error code Proofline answers with: the one table {@code docs/errors.md} is made from (a
 * test checks the two agree). Codes are stable; clients may switch on them. A retryable code
 * carries the one retry-after policy: how many seconds a caller should wait, sent as
 * {@code retry_after} and as the HTTP {@code Retry-After} header.
 */
public enum ErrorCode {
    INVALID_REQUEST(
            "invalid_request",
            422,
            null,
            "fix_request_fields",
            "The request is not a valid verification request; `fields` names each problem and its fix."),
    PAYLOAD_TOO_LARGE(
            "payload_too_large",
            413,
            null,
            "shrink_request",
            "The request is larger than the configured limit (1 MiB by default), which the message states."),
    VERIFICATION_BUDGET_EXCEEDED(
            "verification_budget_exceeded",
            422,
            null,
            "simplify_request",
            "The request is valid but checking it would take more evaluation steps than the budget allows"
                    + " (verify.budget.steps, 2,000,000 by default); send fewer rules, a smaller output or a simpler"
                    + " schema."),
    VERIFICATION_FAILED(
            "verification_failed",
            500,
            null,
            "report_to_operator",
            "The request was valid but the verifier failed on it, or its receipt was larger than the receipts topic"
                    + " takes; the record is kept on the dead-letter topic."),
    PLACEHOLDER_AGENT_ID(
            "placeholder_agent_id",
            400,
            null,
            "fix_request_fields",
            "The agent id in the path is a placeholder ({agent_id}, :agent_id or empty); put a real agent id there."),
    UNAUTHORIZED(
            "unauthorized",
            401,
            null,
            "send_valid_key",
            "This route needs a key and none was sent, or the Authorization: Bearer key sent is unknown or revoked;"
                    + " a bad key is never treated as no key. The WWW-Authenticate header says Bearer."),
    FORBIDDEN(
            "forbidden",
            403,
            null,
            "use_operator_key",
            "The key is valid but its role does not allow this route (docs/access.md lists who may read what)."),
    FREE_ALLOWANCE_EXHAUSTED(
            "free_allowance_exhausted",
            429,
            3600,
            "retry_after_reset",
            "This caller's free verifications for today (UTC) are used up and this deployment takes no payment;"
                    + " retry_after (and Retry-After) is the time to the next UTC midnight, when they reset."
                    + " The document adds the free_trial object."),
    FREE_TRIAL_EXHAUSTED(
            "free_trial_exhausted",
            402,
            null,
            "pay_and_retry",
            "This caller's free verifications for today are used up; the Payment-Required header (x402 version 2)"
                    + " says what to pay. Send the request again with Payment-Signature. The document adds free_trial."),
    PAYMENT_MALFORMED(
            "payment_malformed",
            400,
            null,
            "fix_payment",
            "The Payment-Signature header (or MCP _meta x402/payment) is not base64 of an x402 version 2"
                    + " PaymentPayload."),
    PAYMENT_INVALID(
            "payment_invalid",
            402,
            null,
            "pay_and_retry",
            "The payment does not match any of the requirements offered, its authorization expires before it could be"
                    + " settled, or the facilitator refused it; nothing was charged. Pay again as Payment-Required"
                    + " says."),
    PAYMENT_REPLAYED(
            "payment_replayed",
            402,
            null,
            "pay_and_retry",
            "This payment was already used for a request: a payment is served once. Pay again for this one."),
    PAYMENT_SETTLEMENT_FAILED(
            "payment_settlement_failed",
            402,
            null,
            "pay_and_retry",
            "The request was verified but the payment could not be settled, so the receipt is withheld."),
    PAYMENT_UNAVAILABLE(
            "payment_unavailable",
            503,
            5,
            "retry_later",
            "The payment facilitator cannot be reached; nothing was charged. Retry after retry_after seconds."),
    NOT_FOUND(
            "not_found",
            404,
            null,
            "check_route",
            "No route has this path; GET / lists the routes (and /openapi.json describes them)."),
    METHOD_NOT_ALLOWED(
            "method_not_allowed",
            405,
            null,
            "check_route",
            "The path exists but not with this HTTP method; the Allow header names the methods it takes."),
    NOT_READY(
            "not_ready",
            503,
            2,
            "retry_later",
            "Scores are being moved between instances (a rebalance) or restored; retry after retry_after seconds."),
    SERVER_BUSY(
            "server_busy",
            503,
            5,
            "retry_later",
            "This instance holds as many live-feed or MCP connections, connections from the caller's address,"
                    + " or verifications waiting for their receipts, as it is set to; retry after retry_after"
                    + " seconds, or ask another instance."),
    RECEIPT_PENDING(
            "receipt_pending",
            504,
            1,
            "retry_later",
            "The request was accepted and will be verified, but its receipt was not ready in time; it lands on the"
                    + " receipts topic under the verification_id the message names, and GET /receipts/{verification_id}"
                    + " returns it."),
    BROKER_UNAVAILABLE(
            "broker_unavailable",
            503,
            5,
            "retry_later",
            "Kafka did not acknowledge the request in time, so it was most likely not accepted (if it was, its receipt"
                    + " lands on the receipts topic like any other); retry after retry_after seconds."),
    INVALID_VERIFICATION_ID(
            "invalid_verification_id",
            400,
            null,
            "fix_request_fields",
            "The verification_id in the path is not a UUID (8-4-4-4-12 hexadecimal digits), so no receipt can have"
                    + " it; use the verification_id a receipt, or the message of a 504 receipt_pending, names."),
    RECEIPT_NOT_FOUND(
            "receipt_not_found",
            404,
            2,
            "retry_later",
            "No receipt has this verification_id: it may still be in the pipeline (retry shortly), its request may"
                    + " have been refused (dead-letter topic), or it is older than the receipt index keeps."),
    INTERNAL_ERROR(
            "internal_error",
            500,
            null,
            "report_to_operator",
            "The server failed on a request it should have answered; the operator's log names the cause. Nothing was"
                    + " charged."),
    PROOF_PENDING(
            "proof_pending",
            503,
            1,
            "retry_later",
            "The receipt exists but is not yet covered by a signed checkpoint of the transparency log (one is signed at"
                    + " least every second while receipts arrive); retry.");

    private final String code;
    private final int status;
    private final Integer retryAfterSeconds;
    private final String nextAction;
    private final String description;

    ErrorCode(String code, int status, Integer retryAfterSeconds, String nextAction, String description) {
        this.code = code;
        this.status = status;
        this.retryAfterSeconds = retryAfterSeconds;
        this.nextAction = nextAction;
        this.description = description;
    }

    /** The code as it appears on the wire, e.g. {@code invalid_request}. */
    public String code() {
        return code;
    }

    /** The HTTP status REST answers with; also the {@code status} field of the document. */
    public int status() {
        return status;
    }

    /** Whether the same request may succeed later unchanged. */
    public boolean retryable() {
        return retryAfterSeconds != null;
    }

    /** Seconds to wait before retrying, or {@code null} when retrying unchanged cannot help. */
    public Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public String nextAction() {
        return nextAction;
    }

    public String description() {
        return description;
    }

    /** The code with this wire name, or {@code null} for one this version does not know. */
    public static ErrorCode fromCode(String code) {
        for (ErrorCode known : values()) {
            if (known.code.equals(code)) {
                return known;
            }
        }
        return null;
    }
}
