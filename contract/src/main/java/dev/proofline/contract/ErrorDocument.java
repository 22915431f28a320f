package dev.proofline.contract;

import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one error shape ({@code docs/errors.md}): on REST, in MCP tool results and on the dead-letter
 * topic. {@code retry_after} comes from the code's own policy, so every route says the same.
 */
public record ErrorDocument(ErrorCode code, String message, List<FieldProblem> fields) {

    public ErrorDocument {
        fields = List.copyOf(fields);
    }

    public static ErrorDocument invalidRequest(List<FieldProblem> problems) {
        String message = problems.size() == 1
                ? "The request has 1 problem: " + problems.get(0).field() + " "
                        + problems.get(0).problem() + "."
                : "The request has " + problems.size() + " problems; see fields.";
        return new ErrorDocument(ErrorCode.INVALID_REQUEST, message, problems);
    }

    public static ErrorDocument payloadTooLarge(int sizeBytes, int limitBytes) {
        return new ErrorDocument(
                ErrorCode.PAYLOAD_TOO_LARGE,
                "The request is " + sizeBytes + " bytes; the limit is " + limitBytes + " bytes.",
                List.of());
    }

    public static ErrorDocument verificationFailed(String reason) {
        return new ErrorDocument(
                ErrorCode.VERIFICATION_FAILED, "The verifier failed on a valid request: " + reason, List.of());
    }

    public static ErrorDocument placeholderAgentId() {
        return new ErrorDocument(
                ErrorCode.PLACEHOLDER_AGENT_ID,
                "The path holds a placeholder instead of an agent id.",
                List.of(new FieldProblem(
                        "agent_id", "is a placeholder", "Put the agent's id in the path: /score/seller-7.")));
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

    public static ErrorDocument receiptNotFound() {
        return new ErrorDocument(ErrorCode.RECEIPT_NOT_FOUND, "No receipt with this verification_id (yet).", List.of());
    }

    public ObjectNode toJson() {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.put("code", code.code());
        doc.put("message", message);
        doc.put("status", code.status());
        doc.put("retryable", code.retryable());
        doc.put("charged", false);
        if (code.retryAfterSeconds() != null) {
            doc.put("retry_after", code.retryAfterSeconds());
        }
        ObjectNode action = doc.putArray("next_actions").addObject();
        action.put("action", code.nextAction());
        if (!fields.isEmpty()) {
            ArrayNode names = action.putArray("fields");
            ArrayNode details = doc.putArray("fields");
            for (FieldProblem p : fields) {
                names.add(p.field());
                details.addObject()
                        .put("field", p.field())
                        .put("problem", p.problem())
                        .put("fix", p.fix());
            }
        }
        return doc;
    }
}
