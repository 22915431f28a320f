package dev.proofline.query.mcp;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;

/**
 * At most so many MCP sessions at once. Each costs memory until it is deleted or the SDK sweeps it
 * as idle, and anyone may open one: without a limit one client opened 100,000 in 18 s and the node
 * kept them all. A request that would open one more (a POST naming no session: an
 * {@code initialize}) gets 503 {@code server_busy} with Retry-After when the limit is reached.
 */
final class McpSessionLimit implements Filter {
    static final String SESSION_HEADER = "Mcp-Session-Id";

    private final McpSessions sessions;

    McpSessionLimit(McpSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        HttpServletResponse answer = (HttpServletResponse) response;
        String named = http.getHeader(SESSION_HEADER);
        long now = System.nanoTime();
        if (named == null && "POST".equals(http.getMethod()) && sessions.full(now)) {
            McpConnectionLimit.refuseBusy(answer);
            return;
        }
        if (named != null) {
            sessions.seen(named, now);
            chain.doFilter(request, response);
            // The SDK answers a DELETE with a bare status, sent only once this returns.
            if ("DELETE".equals(http.getMethod()) && answer.getStatus() < 400) {
                sessions.closed(named);
            }
            return;
        }
        Opening opening = new Opening(answer, now);
        chain.doFilter(request, opening);
        if (opening.id != null && answer.getStatus() >= 400) {
            sessions.closed(opening.id);
        }
    }

    /**
     * Counts a session as soon as its id is set on the answer. The SDK flushes the initialize answer
     * before it returns, so a client may already be using the session, or deleting it, by the time
     * this filter's code after the chain runs: counted then, a session deleted first would stay
     * counted.
     */
    private final class Opening extends HttpServletResponseWrapper {
        private final long now;
        private String id;

        Opening(HttpServletResponse response, long now) {
            super(response);
            this.now = now;
        }

        @Override
        public void setHeader(String name, String value) {
            super.setHeader(name, value);
            noteSession(name, value);
        }

        @Override
        public void addHeader(String name, String value) {
            super.addHeader(name, value);
            noteSession(name, value);
        }

        private void noteSession(String name, String value) {
            if (SESSION_HEADER.equalsIgnoreCase(name) && value != null && id == null) {
                id = value;
                sessions.opened(value, now);
            }
        }
    }
}
