package dev.proofline.query;

import dev.proofline.contract.ErrorCode;
import dev.proofline.contract.ErrorDocument;

/**
 * A status and a JSON body: what a REST route sends and what an MCP tool result carries, so the two
 * always say the same. Plain data: the HTTP layer decides how to send it.
 *
 * @param retryAfterSeconds how long to wait before retrying an error, or {@code null}
 */
public record Answer(int status, String json, Integer retryAfterSeconds, java.util.Map<String, String> headers) {
    public Answer {
        headers = java.util.Map.copyOf(headers);
    }

    public Answer(int status, String json, Integer retryAfterSeconds) {
        this(status, json, retryAfterSeconds, java.util.Map.of());
    }

    /**
     * The same answer with one more HTTP header ({@code Free-Allowance-*}, {@code Payment-Required},
     * {@code Payment-Response}); MCP carries the same facts in the result's {@code _meta}.
     */
    public Answer withHeader(String name, String value) {
        java.util.Map<String, String> more = new java.util.LinkedHashMap<>(headers);
        more.put(name, value);
        return new Answer(status, json, retryAfterSeconds, more);
    }

    public static Answer ok(String json) {
        return new Answer(200, json, null);
    }

    public static Answer error(ErrorDocument error) {
        return new Answer(error.code().status(), error.toJson().toString(), error.retryAfterSeconds());
    }

    /** An error document as the pipeline wrote it (a dead letter), answered with its own status. */
    public static Answer errorDocument(String json, int status, String code) {
        ErrorCode known = ErrorCode.fromCode(code);
        return new Answer(status, json, known == null ? null : known.retryAfterSeconds());
    }

    /** The stores cannot answer now: the one mapping of "not queryable yet", for REST and MCP alike. */
    public static Answer notReady() {
        return error(ErrorDocument.notReady());
    }

    public boolean isError() {
        return status >= 400;
    }
}
