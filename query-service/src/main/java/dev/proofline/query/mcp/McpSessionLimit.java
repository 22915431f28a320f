package dev.proofline.query.mcp;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
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
        }
        chain.doFilter(request, response);
        if (named == null) {
            String opened = answer.getHeader(SESSION_HEADER);
            if (opened != null && answer.getStatus() < 400) {
                sessions.opened(opened, now);
            }
        } else if ("DELETE".equals(http.getMethod()) && answer.getStatus() < 400) {
            sessions.closed(named);
        }
    }
}
