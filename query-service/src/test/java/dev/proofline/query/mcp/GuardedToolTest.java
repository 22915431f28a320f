package dev.proofline.query.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.StrictJson;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class GuardedToolTest {
    private static final McpSchema.CallToolRequest CALL =
            new McpSchema.CallToolRequest("get_verification_record", Map.of("agent_id", "a"));

    private static JsonNode document(McpSchema.CallToolResult result) {
        assertTrue(result.isError());
        return StrictJson.parse(((McpSchema.TextContent) result.content().get(0)).text());
    }

    @Test
    void aFailureInsideAToolIsTheInternalErrorDocumentAndNeverItsMessage() {
        var guarded = GuardedTool.guarded("get_verification_record", (exchange, request) -> {
            throw new ArithmeticException("long overflow near the caller's secret-token-123");
        });
        McpSchema.CallToolResult result = guarded.apply(null, CALL);
        JsonNode error = document(result);
        assertEquals("internal_error", error.get("code").asString());
        assertEquals(500, error.get("status").asInt());
        assertFalse(result.toString().contains("secret-token-123"), result.toString());
    }

    @Test
    void storesBetweenInstancesAreNotReadyAndADeepRecursionIsStillAnswered() {
        var moving = GuardedTool.guarded("verify_schema", (exchange, request) -> {
            throw new InvalidStateStoreException("the store is migrating");
        });
        assertEquals("not_ready", document(moving.apply(null, CALL)).get("code").asString());
        var deep = GuardedTool.guarded("verify_schema", (exchange, request) -> {
            throw new StackOverflowError();
        });
        assertEquals(
                "internal_error", document(deep.apply(null, CALL)).get("code").asString());
    }

    @Test
    void anAnswerPassesThroughUntouched() {
        McpSchema.CallToolResult ok = McpSchema.CallToolResult.builder()
                .addTextContent("{}")
                .isError(false)
                .build();
        assertSame(
                ok,
                GuardedTool.guarded("verify_schema", (exchange, request) -> ok).apply(null, CALL));
    }
}
