package dev.proofline.query.verify;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The request bytes REST and MCP verifications hold while they wait for their receipts
 * ({@code verify.max.waiting.mb}). A waiting caller's body stays in memory until it is answered,
 * for as long as the pipeline takes, up to the verify timeout: without a bound, a thousand callers
 * sending 1 MiB requests at once would hold a gigabyte. Past the bound a request is refused with
 * 503 {@code server_busy} before it is published or paid for. When nothing waits one request is
 * always let in, however large, so a bound below {@code max.request.bytes} locks no request out.
 */
public final class WaitingBytes {
    private final long max;
    private final AtomicLong held = new AtomicLong();

    public WaitingBytes(long max) {
        this.max = max;
    }

    /** Takes room for {@code bytes}; false when there is none. */
    boolean take(long bytes) {
        while (true) {
            long now = held.get();
            if (now > 0 && now + bytes > max) {
                return false;
            }
            if (held.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    void giveBack(long bytes) {
        held.addAndGet(-bytes);
    }

    /** The bytes held now, for tests and metrics. */
    public long held() {
        return held.get();
    }
}
