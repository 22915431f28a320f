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
 * kept them all. A request that would open one more (an {@code initialize}, or any POST naming no
 * session) gets 503 {@code server_busy} with Retry-After when the limit is reached. An
 * {@code initialize} that names a session, made up or not, still opens a new one in the SDK: it is
 * counted like any other.
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
        boolean mayOpen = "POST".equals(http.getMethod())
                && (named == null || "initialize".equals(request.getAttribute(McpTransportErrors.METHOD_ATTRIBUTE)));
        if (mayOpen && sessions.full(now)) {
            McpConnectionLimit.refuseBusy(answer);
            return;
        }
        if (named != null) {
            sessions.seen(named, now);
        }
        Opening opening = mayOpen ? new Opening(answer, now, named) : null;
        chain.doFilter(request, opening != null ? opening : answer);
        if (opening != null && opening.id != null && answer.getStatus() >= 400) {
            sessions.closed(opening.id);
        }
        // The SDK answers a DELETE with a bare status, sent only once this returns.
        if (named != null && "DELETE".equals(http.getMethod()) && answer.getStatus() < 400) {
            sessions.closed(named);
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
        private final String named; // the session the request names, or null
        private String id;

        Opening(HttpServletResponse response, long now, String named) {
            super(response);
            this.now = now;
            this.named = named;
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
            // Within a session the SDK may echo the session's own id: only a new one is an opening.
            if (SESSION_HEADER.equalsIgnoreCase(name) && value != null && id == null && !value.equals(named)) {
                id = value;
                sessions.opened(value, now);
            }
        }
    }
}
