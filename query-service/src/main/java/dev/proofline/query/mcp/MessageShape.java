package dev.proofline.query.mcp;

import dev.proofline.contract.FieldProblem;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a POST to {@code /mcp} must be: one JSON-RPC request or notification. The SDK fails (500)
 * on a JSON {@code null}, a response from the client (this server sends no requests to answer), and
 * a message its request type cannot hold (an id that is null, a fraction, {@code true} or past a
 * long; no {@code "jsonrpc": "2.0"}; a method that is no string). Such a failure is answered as the
 * caller's fault, 400 naming the field. The SDK's own header checks (Host, Origin, Accept,
 * Content-Type) still come first.
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

    /** The same for text already decoded (as the SDK decodes a body, U+FFFD for bytes that are not UTF-8). */
    static JsonNode parse(String body) {
        try {
            JsonNode node = JSON.readTree(body);
            return node == null || node.isMissingNode() ? null : node;
        } catch (JacksonException notJson) {
            return null;
        }
    }

    private static final FieldProblem NOT_VERSION_2 =
            new FieldProblem("jsonrpc", "is not \"2.0\"", "Send \"jsonrpc\": \"2.0\" in every message.");

    private static final FieldProblem METHOD_NOT_TEXT =
            new FieldProblem("method", "is not a string", "Name the method as a string, such as \"tools/call\".");

    private static final FieldProblem BAD_ID = new FieldProblem(
            "id",
            "is not a string or an integer",
            "Send a request's id as a string or an integer (never null or a fraction); a notification has none.");

    private static final FieldProblem PARAMS_NOT_OBJECT =
            new FieldProblem("params", "is not an object", "Send params as a JSON object, or leave them out.");

    /**
     * What is wrong with {@code message} (null: not JSON), or null when it is a request or
     * notification the SDK can read (it answers an unknown method itself).
     */
    static FieldProblem problem(JsonNode message) {
        if (message == null || !message.isObject()) {
            return NOT_A_MESSAGE;
        }
        if (!message.has("method")) {
            return message.has("result") || message.has("error") ? A_RESPONSE : NOT_A_MESSAGE;
        }
        if (!message.path("jsonrpc").isString()
                || !"2.0".equals(message.get("jsonrpc").asString())) {
            return NOT_VERSION_2;
        }
        if (!message.get("method").isString()) {
            return METHOD_NOT_TEXT;
        }
        JsonNode id = message.get("id");
        if (id != null && !id.isString() && !(id.isIntegralNumber() && id.canConvertToLong())) {
            return BAD_ID;
        }
        JsonNode params = message.get("params");
        if (params != null && !params.isObject() && !params.isNull()) {
            return PARAMS_NOT_OBJECT;
        }
        return null;
    }
}
