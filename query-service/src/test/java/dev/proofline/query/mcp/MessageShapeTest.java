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
        assertNull(problem("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\",\"params\":{}}"));
        assertNull(problem("{\"jsonrpc\":\"2.0\",\"id\":-9223372036854775808,\"method\":\"ping\"}"));
    }

    /** What the SDK's request type cannot hold, which it fails on (500): the caller's field, named. */
    @Test
    void aMessageTheSdkCannotHoldNamesItsField() {
        String[][] cases = {
            {"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", "id"},
            {"{\"jsonrpc\":\"2.0\",\"id\":1.0,\"method\":\"ping\"}", "id"},
            {"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", "id"},
            {"{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", "id"},
            {"{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", "id"},
            {"{\"jsonrpc\":\"2.0\",\"id\":18446744073709551616,\"method\":\"ping\"}", "id"},
            {"{\"id\":1,\"method\":\"ping\"}", "jsonrpc"},
            {"{\"jsonrpc\":2.0,\"id\":1,\"method\":\"ping\"}", "jsonrpc"},
            {"{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", "jsonrpc"},
            {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}", "method"},
            {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":{\"a\":1}}", "method"},
            {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":[1]}", "params"},
            {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":\"x\"}", "params"}
        };
        for (String[] c : cases) {
            FieldProblem problem = problem(c[0]);
            assertEquals(c[1], problem == null ? null : problem.field(), c[0]);
        }
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
