package dev.proofline.query.http;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets one log line through at most once a minute, however often the event happens, from any
 * number of threads: the operator learns that a limit is being reached without a line per request.
 */
final class OncePerMinute {
    private static final long EVERY_NANOS = Duration.ofMinutes(1).toNanos();

    private final AtomicLong last = new AtomicLong(System.nanoTime() - EVERY_NANOS);

    /** Whether this call may log: the first call, then the first a minute or more after the last that could. */
    boolean due() {
        long now = System.nanoTime();
        long before = last.get();
        return now - before >= EVERY_NANOS && last.compareAndSet(before, now);
    }
}
