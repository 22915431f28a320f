package dev.proofline.query.mcp;

import dev.proofline.attestor.StrictJson;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A request the SDK cannot read into its request type: a {@code tools/call} whose {@code params} or
 * {@code arguments} is not an object, any {@code params._meta} that is not an object, an
 * {@code initialize} without params. The SDK ends the answer's stream without any message (or fails
 * with 500), so the client waits out its timeout. Proofline answers first, with JSON-RPC's
 * "invalid params". So too a call of a tool this server does not have: the SDK's answer would
 * repeat the name sent, which may be as long as a request.
 */
final class ToolCallShape {
    static final int INVALID_PARAMS = -32602;

    private ToolCallShape() {}

    /** The JSON-RPC error answering {@code body}, or null when the SDK can take it (or it is not a tools/call). */
    static JsonNode refusal(byte[] body, Set<String> tools) {
        return refusal(parse(body), tools);
    }

    /** The body as strict JSON, or null when it is not (the SDK refuses it, and McpTransportErrors words that). */
    static JsonNode parse(byte[] body) {
        try {
            return StrictJson.parse(body);
        } catch (RuntimeException notJson) {
            return null;
        }
    }

    /**
     * The same for a body already parsed ({@link #parse}; null: not JSON).
     *
     * @param tools the names of the tools this server has
     */
    static JsonNode refusal(JsonNode message, Set<String> tools) {
        if (message == null || !message.isObject() || !message.path("method").isString() || !message.has("id")) {
            return null; // a notification gets no answer; the SDK refuses what it cannot read with 400
        }
        String method = message.get("method").asString();
        JsonNode params = message.get("params");
        String problem;
        if (params != null
                && params.isObject()
                && params.has("_meta")
                && !params.get("_meta").isObject()
                && !params.get("_meta").isNull()) {
            // The SDK fails reading a _meta that is not an object and ends the stream without a word.
            problem = "params._meta, when sent, is an object";
        } else if ("initialize".equals(method) && (params == null || !params.isObject())) {
            // The SDK fails (500) on an initialize without params.
            problem = "initialize takes params as an object with protocolVersion, capabilities and clientInfo";
        } else if (!"tools/call".equals(method)) {
            return null;
        } else if (params == null || !params.isObject()) {
            problem = "tools/call takes params as an object with the tool's name and its arguments";
        } else if (!params.path("name").isString()) {
            problem = "tools/call takes params.name as the tool's name, a string";
        } else if (!tools.contains(params.get("name").asString())) {
            problem = "params.name names no tool this server has; tools/list names them";
        } else if (params.has("arguments")
                && !params.get("arguments").isObject()
                && !params.get("arguments").isNull()) {
            problem = "tools/call takes params.arguments as an object";
        } else {
            return null;
        }
        ObjectNode answer = JsonNodeFactory.instance.objectNode();
        answer.put("jsonrpc", "2.0");
        JsonNode id = message.get("id");
        answer.set(
                "id",
                id != null && (id.isString() || id.isIntegralNumber()) ? id : JsonNodeFactory.instance.nullNode());
        answer.putObject("error").put("code", INVALID_PARAMS).put("message", "Invalid params: " + problem);
        return answer;
    }
}
