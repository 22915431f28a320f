package dev.proofline.query.mcp;

import dev.proofline.contract.FieldProblem;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a POST to {@code /mcp} must be: one JSON-RPC request or notification. The SDK fails (500)
 * on a JSON {@code null} or a response from the client (this server sends no requests to answer);
 * such a failure is answered as the caller's fault, 400 naming the body. The SDK's own header
 * checks (Host, Origin, Accept, Content-Type) still come first.
 */
final class MessageShape {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final FieldProblem NOT_A_MESSAGE = new FieldProblem(
            "body",
            "is not a JSON-RPC 2.0 message",
            "Send one JSON-RPC 2.0 request or notification as a JSON object, starting with initialize.");

    private static final FieldProblem A_RESPONSE = new FieldProblem(
            "body",
            "is a JSON-RPC response, and this server sends no requests to answer",
            "Send JSON-RPC requests and notifications only.");

    private MessageShape() {}

    /** The body as JSON, or null when it is not JSON. */
    static JsonNode parse(byte[] body) {
        try {
            JsonNode node = JSON.readTree(body);
            return node == null || node.isMissingNode() ? null : node;
        } catch (JacksonException notJson) {
            return null;
        }
    }

    /** What is wrong with {@code message} (null: not JSON), or null when it is a request or notification. */
    static FieldProblem problem(JsonNode message) {
        if (message == null || !message.isObject()) {
            return NOT_A_MESSAGE;
        }
        if (message.has("method")) {
            return null; // the SDK checks the rest, and answers an unknown method itself
        }
        return message.has("result") || message.has("error") ? A_RESPONSE : NOT_A_MESSAGE;
    }
}
