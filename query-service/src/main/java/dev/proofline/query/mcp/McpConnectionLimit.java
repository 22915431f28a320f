package dev.proofline.query.mcp;

import dev.proofline.contract.ErrorDocument;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;

/**
 * At most so many MCP requests open at once, streamed answers included (the SDK may answer a POST
 * as server-sent events): a flood gets 503 {@code server_busy} with the uniform document, never an
 * out-of-memory. A slot is freed when the request ends, or, for an asynchronous answer, when the
 * handler completes it, or it times out or fails.
 */
final class McpConnectionLimit implements Filter {
    private final Semaphore slots;

    McpConnectionLimit(int maxConnections) {
        this.slots = new Semaphore(maxConnections);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!slots.tryAcquire()) {
            refuseBusy((HttpServletResponse) response);
            return;
        }
        AsyncSlot slot = new AsyncSlot(slots::release);
        try {
            chain.doFilter(new AsyncSlot.Request((HttpServletRequest) request, slot), response);
        } finally {
            slot.dispatchReturned();
        }
    }

    /** 503 {@code server_busy} with Retry-After: what every MCP limit answers once it is reached. */
    static void refuseBusy(HttpServletResponse http) throws IOException {
        ErrorDocument busy = ErrorDocument.serverBusy();
        http.setStatus(busy.code().status());
        http.setHeader("Retry-After", Integer.toString(busy.code().retryAfterSeconds()));
        http.setContentType("application/json");
        http.getOutputStream().write(busy.toJson().toString().getBytes(StandardCharsets.UTF_8));
    }
}
