package dev.proofline.query.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.proofline.contract.FieldProblem;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MessageShapeTest {
    private static FieldProblem problem(String body) {
        return MessageShape.problem(MessageShape.parse(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void requestsAndNotificationsGoOnToTheSdkEvenWithAMethodItWillNotKnow() {
        assertNull(problem("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"));
        assertNull(problem("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
        assertNull(problem("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}"));
    }

    @Test
    void anythingElseIsRefusedNamingTheBody() {
        for (String body : new String[] {
            "null",
            "[]",
            "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
            "\"text\"",
            "12",
            "{}",
            "{\"jsonrpc\":\"2.0\",\"id\":1}",
            "not json",
            "{",
            "",
            "{\"a\":1} trailing"
        }) {
            FieldProblem problem = problem(body);
            assertEquals("body", problem == null ? null : problem.field(), body);
            assertEquals("is not a JSON-RPC 2.0 message", problem.problem(), body);
        }
        assertEquals(
                "is a JSON-RPC response, and this server sends no requests to answer",
                problem("{\"jsonrpc\":\"2.0\",\"id\":14,\"result\":{}}").problem());
        assertEquals(
                "is a JSON-RPC response, and this server sends no requests to answer",
                problem("{\"jsonrpc\":\"2.0\",\"id\":15,\"error\":{\"code\":1,\"message\":\"x\"}}")
                        .problem());
    }
}
