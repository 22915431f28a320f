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
 * repeat the name sent, which may be as long as a request; and a method MCP does not define, whose
 * name the SDK's "method not found" would repeat the same way.
 */
final class ToolCallShape {
    static final int INVALID_PARAMS = -32602;
    static final int METHOD_NOT_FOUND = -32601;

    /** The requests MCP defines from a client to a server; the SDK answers those it does not serve. */
    static final Set<String> MCP_REQUESTS = Set.of(
            "initialize",
            "ping",
            "tools/list",
            "tools/call",
            "resources/list",
            "resources/templates/list",
            "resources/read",
            "resources/subscribe",
            "resources/unsubscribe",
            "prompts/list",
            "prompts/get",
            "logging/setLevel",
            "completion/complete",
            "tasks/get",
            "tasks/result",
            "tasks/list",
            "tasks/cancel");

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
        if (!MCP_REQUESTS.contains(method)) {
            return error(
                    message,
                    METHOD_NOT_FOUND,
                    "Method not found: MCP defines no such request (tools/list names the tools)");
        }
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
        return error(message, INVALID_PARAMS, "Invalid params: " + problem);
    }

    private static ObjectNode error(JsonNode message, int code, String text) {
        ObjectNode answer = JsonNodeFactory.instance.objectNode();
        answer.put("jsonrpc", "2.0");
        JsonNode id = message.get("id");
        answer.set(
                "id",
                id != null && (id.isString() || id.isIntegralNumber()) ? id : JsonNodeFactory.instance.nullNode());
        answer.putObject("error").put("code", code).put("message", text);
        return answer;
    }
}
