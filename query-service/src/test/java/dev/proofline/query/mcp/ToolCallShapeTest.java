package dev.proofline.query.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ToolCallShapeTest {
    private static JsonNode refusal(String body) {
        return ToolCallShape.refusal(body.getBytes(StandardCharsets.UTF_8), Set.of("verify_schema", "other_tool"));
    }

    @Test
    void aToolCallWhoseParamsOrArgumentsAreNoObjectIsInvalidParams() {
        for (String params : new String[] {
            "\"params\":{\"name\":\"verify_schema\",\"arguments\":\"text\"}",
            "\"params\":{\"name\":\"verify_schema\",\"arguments\":[1]}",
            "\"params\":{\"name\":\"verify_schema\",\"arguments\":7}",
            "\"params\":{\"name\":5,\"arguments\":{}}",
            "\"params\":[]",
            "\"params\":null",
            "\"other\":1"
        }) {
            JsonNode answer = refusal("{\"jsonrpc\":\"2.0\",\"id\":9," + params + ",\"method\":\"tools/call\"}");
            assertEquals(-32602, answer.path("error").path("code").asInt(), params);
            assertEquals(9, answer.get("id").asInt(), params);
            assertEquals("2.0", answer.get("jsonrpc").asString(), params);
        }
        // An id that JSON-RPC does not allow is not echoed.
        assertEquals(
                true,
                refusal("{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"tools/call\",\"params\":1}")
                        .get("id")
                        .isNull());
    }

    @Test
    void everythingElseIsLeftToTheSdk() {
        assertNull(refusal("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"verify_schema\",\"arguments\":{\"task_id\":5}}}"));
        assertNull(refusal(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"other_tool\"}}"));
        assertNull(refusal("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":7}"));
        assertNull(refusal("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"verify_schema\",\"arguments\":null}}"));
        assertNull(refusal("not json"));
        assertNull(refusal("[{\"method\":\"tools/call\"}]"));
        assertNull(refusal("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"_meta\":null}}"));
        // A notification is never answered, however it is shaped.
        assertNull(refusal("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{\"_meta\":1}}"));
        assertNull(refusal("{\"jsonrpc\":\"2.0\",\"method\":\"initialize\"}"));
    }

    /** The SDK's own answer would repeat the name sent, however long. */
    @Test
    void aToolThisServerDoesNotHaveIsInvalidParamsWithoutRepeatingItsName() {
        String name = "no_such_tool_" + "x".repeat(5000);
        JsonNode answer = refusal("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\"," + "\"params\":{\"name\":\""
                + name + "\",\"arguments\":{}}}");
        assertEquals(-32602, answer.path("error").path("code").asInt());
        assertEquals(4, answer.get("id").asInt());
        assertEquals(false, answer.toString().contains("no_such_tool"), answer.toString());
    }

    /** The SDK's "method not found" would repeat the method sent, however long. */
    @Test
    void aMethodMcpDoesNotDefineIsMethodNotFoundWithoutRepeatingIt() {
        String method = "no_such_method_" + "x".repeat(5000);
        JsonNode answer = refusal("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"" + method + "\"}");
        assertEquals(-32601, answer.path("error").path("code").asInt());
        assertEquals(6, answer.get("id").asInt());
        assertEquals(false, answer.toString().contains("no_such_method"), answer.toString());
        // A method MCP defines is the SDK's to answer, served here or not.
        assertNull(refusal("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\"}"));
        assertNull(refusal("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"));
    }

    @Test
    void aMetaThatIsNoObjectAndAnInitializeWithoutParamsAreInvalidParams() {
        for (String message : new String[] {
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":{\"_meta\":\"x\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"_meta\":[1]}}",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":null}"
        }) {
            JsonNode answer = refusal(message);
            org.junit.jupiter.api.Assertions.assertEquals(
                    -32602, answer.at("/error/code").asInt(), message);
            org.junit.jupiter.api.Assertions.assertEquals(3, answer.get("id").asInt(), message);
        }
    }
}
