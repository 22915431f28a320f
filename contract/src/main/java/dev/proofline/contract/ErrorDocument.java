package dev.proofline.contract;

import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one error shape ({@code docs/errors.md}): on REST, in MCP tool results and on the dead-letter
 * topic. {@code retry_after} comes from the code's own policy, so every route says the same, unless
 * the error knows better (an allowance resets at midnight).
 */
public record ErrorDocument(
        ErrorCode code, String message, List<FieldProblem> fields, Integer retryAfterSeconds, ObjectNode extra) {
    /**
     * At most this many problems are listed; the rest are counted in {@code fields_omitted}, so an
     * error stays the size of a receipt however many problems a request has, and always fits in a
     * dead letter.
     */
    public static final int MAX_FIELDS = 20;

    private static final int MAX_TEXT = 500;

    public ErrorDocument {
        fields = List.copyOf(fields);
        retryAfterSeconds = retryAfterSeconds != null ? retryAfterSeconds : code.retryAfterSeconds();
        extra = extra == null ? null : extra.deepCopy();
    }

    public ErrorDocument(ErrorCode code, String message, List<FieldProblem> fields) {
        this(code, message, fields, null, null);
    }

    /** The same error with a retry time of its own (a reset at midnight), instead of the code's policy. */
    public ErrorDocument retryAfter(int seconds) {
        return new ErrorDocument(code, message, fields, seconds, extra);
    }

    /** The same error with more members after the standard ones (the {@code free_trial} object of a 402/429). */
    public ErrorDocument with(ObjectNode members) {
        return new ErrorDocument(code, message, fields, retryAfterSeconds, members);
    }

    /** How every invalid-request message ends, as the reference service words it. */
    public static final String INVALID_REQUEST_ADVICE = " Nothing was charged; fix the field(s) and send it again.";

    private static final int PROBLEMS_NAMED_IN_MESSAGE = 3;

    /**
     * The 422 of a request with field problems. The message names the first few problems in words
     * (a caller that logs only the message can still act), then says nothing was charged.
     */
    public static ErrorDocument invalidRequest(List<FieldProblem> problems) {
        StringBuilder message = new StringBuilder("The request is invalid: ");
        int named = Math.min(problems.size(), PROBLEMS_NAMED_IN_MESSAGE);
        for (int i = 0; i < named; i++) {
            // Cut as in fields: a field's name may repeat a 50,000-character key of the request.
            message.append(i == 0 ? "" : "; ")
                    .append(cut(problems.get(i).field()))
                    .append(' ')
                    .append(cut(problems.get(i).problem()));
        }
        if (problems.size() > named) {
            message.append("; and ").append(problems.size() - named).append(" more (see fields)");
        }
        message.append('.').append(INVALID_REQUEST_ADVICE);
        return new ErrorDocument(ErrorCode.INVALID_REQUEST, message.toString(), problems);
    }

    public static ErrorDocument payloadTooLarge(int sizeBytes, int limitBytes) {
        return new ErrorDocument(
                ErrorCode.PAYLOAD_TOO_LARGE,
                "The request is " + sizeBytes + " bytes; the limit is " + limitBytes + " bytes.",
                List.of());
    }

    public static ErrorDocument budgetExceeded(long budgetSteps) {
        return new ErrorDocument(
                ErrorCode.VERIFICATION_BUDGET_EXCEEDED,
                "Checking this request would take more than " + budgetSteps
                        + " evaluation steps (schema keywords applied, values examined by rules); nothing was signed.",
                List.of());
    }

    /** No key where one is needed, or a key that is unknown or revoked. */
    public static ErrorDocument unauthorized(boolean keySent) {
        return new ErrorDocument(
                ErrorCode.UNAUTHORIZED,
                keySent
                        ? "The key sent is unknown or revoked; ask the operator for a valid key."
                        : "This route needs a key: send Authorization: Bearer <key>.",
                List.of());
    }

    /** Routing by an overridden method would sidestep who may call what. */
    public static ErrorDocument methodOverrideRefused() {
        return new ErrorDocument(
                ErrorCode.INVALID_REQUEST,
                "The HTTP request is malformed.",
                List.of(new FieldProblem(
                        "X-HTTP-Method-Override",
                        "is not accepted",
                        "Send the request with its real method instead.")));
    }

    /** A body in a content coding (gzip, ...): bodies are read as sent, and limits count the bytes sent. */
    public static ErrorDocument contentCodingRefused() {
        return new ErrorDocument(
                ErrorCode.INVALID_REQUEST,
                "The request's body is in a content coding this server does not decode.",
                List.of(new FieldProblem(
                        "Content-Encoding",
                        "names a content coding other than identity",
                        "Send the body as it is, uncompressed, without a Content-Encoding header.")));
    }

    /** A body in a transfer coding other than chunked (gzip, ...), which Jetty would pass on undecoded. */
    public static ErrorDocument transferCodingRefused() {
        return new ErrorDocument(
                ErrorCode.INVALID_REQUEST,
                "The request's body is in a transfer coding this server does not decode.",
                List.of(new FieldProblem(
                        "Transfer-Encoding",
                        "names a transfer coding other than chunked",
                        "Send the body as it is, or chunked, without gzip or another coding.")));
    }

    public static ErrorDocument forbidden() {
        return new ErrorDocument(
                ErrorCode.FORBIDDEN, "This key's role does not allow this route; it needs an operator key.", List.of());
    }

    public static ErrorDocument notFound() {
        return new ErrorDocument(ErrorCode.NOT_FOUND, "No route has this path.", List.of());
    }

    public static ErrorDocument methodNotAllowed() {
        return new ErrorDocument(ErrorCode.METHOD_NOT_ALLOWED, "This path does not take this method.", List.of());
    }

    /** A body refused before it was read whole: its size is unknown, only that it is over the limit. */
    public static ErrorDocument payloadTooLarge(int limitBytes) {
        return new ErrorDocument(
                ErrorCode.PAYLOAD_TOO_LARGE,
                "The request is larger than the limit of " + limitBytes + " bytes.",
                List.of());
    }

    /** An HTTP request the server could not even route (a malformed URL or header). */
    public static ErrorDocument malformedHttpRequest() {
        return new ErrorDocument(
                ErrorCode.INVALID_REQUEST,
                "The HTTP request is malformed.",
                List.of(new FieldProblem(
                        "request",
                        "is not a well-formed HTTP request (URL, headers or encoding)",
                        "Send a well-formed request; percent-encode path segments, and do not put control"
                                + " characters in them.")));
    }

    /**
     * The body stopped arriving before its end (shorter than its Content-Length, a chunk cut short),
     * or was still arriving at the server's deadline for bodies.
     */
    public static ErrorDocument bodyNotReceived() {
        return new ErrorDocument(
                ErrorCode.INVALID_REQUEST,
                "The request's body did not arrive in time.",
                List.of(new FieldProblem(
                        "body",
                        "did not arrive whole in time: it stopped before its end (shorter than its Content-Length,"
                                + " or a chunk cut short), or was still trickling in at the server's deadline",
                        "Send the whole body at once, with a Content-Length that matches it.")));
    }

    /** The verifier failed on a valid request: a bug. The cause goes to the operator's log, never to the caller. */
    public static ErrorDocument verificationFailed() {
        return new ErrorDocument(
                ErrorCode.VERIFICATION_FAILED,
                "The verifier failed on a valid request; the operator's log names the cause.",
                List.of());
    }

    public static ErrorDocument invalidVerificationId() {
        return new ErrorDocument(
                ErrorCode.INVALID_VERIFICATION_ID,
                "The path holds no verification_id: it is not a UUID.",
                List.of(new FieldProblem(
                        "verification_id",
                        "is not a UUID",
                        "Use the verification_id of a receipt, such as 96b4f722-04c3-47c7-8708-5bba97fd18b5.")));
    }

    public static ErrorDocument placeholderAgentId() {
        return new ErrorDocument(
                ErrorCode.PLACEHOLDER_AGENT_ID,
                "The path holds a placeholder instead of an agent id.",
                List.of(new FieldProblem(
                        "agent_id", "is a placeholder", "Put the agent's id in the path: /score/seller-7.")));
    }

    public static ErrorDocument serverBusy() {
        return new ErrorDocument(
                ErrorCode.SERVER_BUSY,
                "This instance holds as many connections of this kind as it is set to.",
                List.of());
    }

    /** A connection past http.max.connections.per.address, refused before its request is read. */
    public static ErrorDocument addressBusy() {
        return new ErrorDocument(
                ErrorCode.SERVER_BUSY,
                "This client address holds as many connections to this instance as one address may; reuse"
                        + " one of them, or retry after retry_after seconds.",
                List.of());
    }

    public static ErrorDocument verificationsBusy() {
        return new ErrorDocument(
                ErrorCode.SERVER_BUSY,
                "This instance holds as many requests waiting for their receipts as it is set to"
                        + " (verify.max.waiting.mb).",
                List.of());
    }

    public static ErrorDocument notReady() {
        return new ErrorDocument(
                ErrorCode.NOT_READY, "Scores are not queryable right now (rebalancing or restoring).", List.of());
    }

    public static ErrorDocument receiptPending(String verificationId) {
        return new ErrorDocument(
                ErrorCode.RECEIPT_PENDING,
                "The request was accepted; its receipt was not ready in time. "
                        + "It will be published on the receipts topic with verification_id " + verificationId
                        + "; GET /receipts/" + verificationId + " returns it once it is.",
                List.of());
    }

    public static ErrorDocument brokerUnavailable() {
        return new ErrorDocument(
                ErrorCode.BROKER_UNAVAILABLE, "Kafka did not acknowledge the request in time.", List.of());
    }

    public static ErrorDocument notInTransparencyLog() {
        return new ErrorDocument(
                ErrorCode.NOT_FOUND,
                "Receipts of test- agents are not in the transparency log, so they have no inclusion proof.",
                List.of());
    }

    /** A tile or entry bundle path that is well formed, for a part of the log not yet published. */
    public static ErrorDocument tileNotPublished() {
        return new ErrorDocument(
                ErrorCode.NOT_FOUND,
                "The transparency log has not grown this far: no tile or entry bundle has this path yet.",
                List.of());
    }

    /** The log has no signed checkpoint: not yet, or it may not sign one (the operator's log says why). */
    public static ErrorDocument noCheckpoint() {
        return new ErrorDocument(
                ErrorCode.NOT_READY,
                "The transparency log has no signed checkpoint yet; it signs one within its checkpoint interval.",
                List.of());
    }

    public static ErrorDocument internalError() {
        return new ErrorDocument(
                ErrorCode.INTERNAL_ERROR,
                "The server failed on this request; the operator's log names the cause.",
                List.of());
    }

    public static ErrorDocument proofPending() {
        return new ErrorDocument(
                ErrorCode.PROOF_PENDING,
                "The receipt is not yet in a signed checkpoint of the transparency log; retry in a second.",
                List.of());
    }

    public static ErrorDocument receiptNotFound() {
        return new ErrorDocument(ErrorCode.RECEIPT_NOT_FOUND, "No receipt with this verification_id (yet).", List.of());
    }

    public ObjectNode toJson() {
        return toJson(code.status());
    }

    /**
     * The document as answered with an HTTP status the server chose, not the code's: a request
     * Jetty cannot parse is 400, 414 or 431 with {@code invalid_request}. The document's status is
     * always the one the caller got.
     */
    public ObjectNode toJson(int httpStatus) {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.put("code", code.code());
        doc.put("message", message);
        doc.put("status", httpStatus);
        doc.put("retryable", code.retryable());
        doc.put("charged", false);
        if (retryAfterSeconds != null) {
            doc.put("retry_after", retryAfterSeconds);
        }
        ObjectNode action = doc.putArray("next_actions").addObject();
        action.put("action", code.nextAction());
        if (!fields.isEmpty()) {
            ArrayNode names = action.putArray("fields");
            ArrayNode details = doc.putArray("fields");
            for (FieldProblem p : fields.subList(0, Math.min(MAX_FIELDS, fields.size()))) {
                names.add(cut(p.field()));
                details.addObject()
                        .put("field", cut(p.field()))
                        .put("problem", cut(p.problem()))
                        .put("fix", cut(p.fix()));
            }
        }
        if (fields.size() > MAX_FIELDS) {
            doc.put("fields_omitted", fields.size() - MAX_FIELDS);
        }
        if (extra != null) {
            extra.properties().forEach(e -> doc.set(e.getKey(), e.getValue()));
        }
        return doc;
    }

    /** Field names may carry a caller's keys: no entry is allowed to make the document large. */
    private static String cut(String text) {
        return ShortText.atMost(text, MAX_TEXT);
    }
}
