package dev.proofline.query.http;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/**
 * A response whose {@code Cache-Control: no-store}, once set (by the access filter, for private
 * answers), is not joined or replaced by the {@code no-cache} that a streaming handler adds on its
 * own: Javalin's SSE handler and the MCP SDK each add one, which sent two {@code Cache-Control}
 * lines.
 */
public class NoStoreKept extends HttpServletResponseWrapper {
    public NoStoreKept(HttpServletResponse response) {
        super(response);
    }

    @Override
    public void setHeader(String name, String value) {
        if (!keepsNoStore(name)) {
            super.setHeader(name, value);
        }
    }

    @Override
    public void addHeader(String name, String value) {
        if (!keepsNoStore(name)) {
            super.addHeader(name, value);
        }
    }

    private boolean keepsNoStore(String name) {
        String kept = getHeader("Cache-Control");
        return "Cache-Control".equalsIgnoreCase(name) && kept != null && kept.contains("no-store");
    }
}
