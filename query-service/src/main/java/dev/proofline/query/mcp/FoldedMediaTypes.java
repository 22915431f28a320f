package dev.proofline.query.mcp;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;

/**
 * A request whose {@code Accept} and {@code Content-Type} are in lower case, as the MCP SDK reads
 * them. Media types are case-insensitive (RFC 9110 8.3.1), but the SDK looks for
 * {@code application/json} and {@code text/event-stream} as written: {@code Accept:
 * Application/Json, Text/Event-Stream} was refused.
 */
final class FoldedMediaTypes extends HttpServletRequestWrapper {
    FoldedMediaTypes(HttpServletRequest request) {
        super(request);
    }

    private static boolean folded(String name) {
        return "accept".equalsIgnoreCase(name) || "content-type".equalsIgnoreCase(name);
    }

    private static String fold(String value) {
        return value == null ? null : value.toLowerCase(Locale.ROOT);
    }

    @Override
    public String getHeader(String name) {
        return folded(name) ? fold(super.getHeader(name)) : super.getHeader(name);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
        if (!folded(name)) {
            return super.getHeaders(name);
        }
        List<String> values = Collections.list(super.getHeaders(name));
        values.replaceAll(FoldedMediaTypes::fold);
        return Collections.enumeration(values);
    }

    @Override
    public String getContentType() {
        return fold(super.getContentType());
    }
}
