package dev.proofline.query.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ToolArgumentsTest {
    private static String of(String body) {
        byte[] slice = ToolArguments.of(body.getBytes(StandardCharsets.UTF_8));
        return slice == null ? null : new String(slice, StandardCharsets.UTF_8);
    }

    @Test
    void theArgumentsAreTheCallersOwnBytesWhereverTheyStand() {
        assertEquals(
                "{\"total\": 1e400, \"x\" : [1,2]}",
                of("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"verify_schema\","
                        + "\"arguments\":{\"total\": 1e400, \"x\" : [1,2]}}}"));
        // Before the name, after other members, with nested objects and non-ASCII text around them.
        assertEquals(
                "{\"é\":{\"a\":{}},\"s\":\"}\"}",
                of("{\"params\":{\"_meta\":{\"arguments\":{\"not\":\"these\"}},\"arguments\":{\"é\":{\"a\":{}},"
                        + "\"s\":\"}\"},\"name\":\"t\"},\"method\":\"tools/call\",\"note\":\"☃\"}"));
    }

    @Test
    void noSliceWithoutAnObjectOfArguments() {
        assertNull(of("{\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}"));
        assertNull(of("{\"method\":\"tools/call\",\"params\":{\"arguments\":null}}"));
        assertNull(of("{\"method\":\"tools/call\",\"params\":[1]}"));
        assertNull(of("[1]"));
        assertNull(of("{\"arguments\":{}}")); // not under params
    }
}
