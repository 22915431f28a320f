package dev.proofline.query.mcp;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The MCP sessions this instance holds, as seen from outside the SDK: opened by an
 * {@code initialize} answer, touched by every request naming them, ended by {@code DELETE}. The SDK
 * also ends a session idle for one to two sweep intervals without telling anyone, so one not seen
 * for {@code forgetAfter} (two intervals) is taken as gone. The count can run a little high (a
 * session the SDK just swept), never far low, which is the right side for a limit.
 */
final class McpSessions {
    private final int max;
    private final long forgetAfterNanos;
    private final ConcurrentHashMap<String, Long> lastSeen = new ConcurrentHashMap<>();

    McpSessions(int max, Duration forgetAfter) {
        this.max = max;
        this.forgetAfterNanos = forgetAfter.toNanos();
    }

    /** Whether another session would be one too many at {@code now} (System.nanoTime). */
    boolean full(long now) {
        if (lastSeen.size() < max) {
            return false;
        }
        lastSeen.values().removeIf(seen -> now - seen > forgetAfterNanos);
        return lastSeen.size() >= max;
    }

    void opened(String id, long now) {
        lastSeen.put(id, now);
    }

    void seen(String id, long now) {
        lastSeen.computeIfPresent(id, (known, before) -> now);
    }

    /** Whether {@code id} names a session this instance holds (as far as it has seen). */
    boolean open(String id) {
        return lastSeen.containsKey(id);
    }

    void closed(String id) {
        lastSeen.remove(id);
    }

    int count() {
        return lastSeen.size();
    }
}
