package dev.proofline.query.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class McpSessionsTest {
    private static final long MINUTE = Duration.ofMinutes(1).toNanos();

    @Test
    void fullAtTheLimitUntilOneIsDeletedOrForgottenAfterItsIdleTime() {
        McpSessions sessions = new McpSessions(2, Duration.ofMinutes(10));
        assertFalse(sessions.full(0));
        sessions.opened("a", 0);
        sessions.opened("b", 0);
        assertTrue(sessions.full(MINUTE));
        sessions.closed("a");
        assertFalse(sessions.full(MINUTE));
        sessions.opened("c", MINUTE);
        // b was last seen at 0, c at one minute: at 10.5 minutes only b is past its idle time.
        sessions.seen("unknown", 5 * MINUTE); // a session this instance never opened is not counted
        assertEquals(2, sessions.count());
        assertFalse(sessions.full(10 * MINUTE + MINUTE / 2));
        assertEquals(1, sessions.count());
        sessions.opened("d", 11 * MINUTE);
        sessions.seen("c", 11 * MINUTE); // in use: not forgotten
        assertTrue(sessions.full(20 * MINUTE));
    }
}
