package dev.proofline.query.http;

import dev.proofline.contract.ErrorDocument;
import dev.proofline.query.access.Refusal;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Enumeration;

/**
 * A request body in a content coding, or in a transfer coding other than {@code chunked}, is refused
 * with 415 (RFC 9110 §15.5.16), naming the header. Nothing here decodes one: a gzip body read as
 * JSON was answered "not valid UTF-8", which sent the caller looking in the wrong place, and decoding would let a small body
 * grow past {@code max.request.bytes} after the limit was checked. The answer's
 * {@code Accept-Encoding: identity} says what is taken. A request without a body is not looked at.
 */
final class ContentCodings implements Filter {
    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        ErrorDocument refused = Refusal.hasBody(http) ? codingProblem(http) : null;
        if (refused == null) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletResponse answer = (HttpServletResponse) response;
        answer.setHeader("Accept-Encoding", "identity");
        Refusal.send(http, answer, 415, refused);
    }

    /** The refusal a body's codings earn, or null when it is sent as it is (or chunked). */
    private static ErrorDocument codingProblem(HttpServletRequest http) {
        if (!only("identity", http.getHeaders("Content-Encoding"))) {
            return ErrorDocument.contentCodingRefused();
        }
        // Jetty takes "Transfer-Encoding: gzip, chunked" (chunked last) and passes the gzip on.
        if (!only("chunked", http.getHeaders("Transfer-Encoding"))) {
            return ErrorDocument.transferCodingRefused();
        }
        return null;
    }

    /** Whether every coding the header lines name is {@code allowed}; no header at all is. */
    static boolean only(String allowed, Enumeration<String> lines) {
        if (lines == null) {
            return true;
        }
        while (lines.hasMoreElements()) {
            for (String coding : lines.nextElement().split(",", -1)) {
                String name = coding.strip();
                if (!name.isEmpty() && !name.equalsIgnoreCase(allowed)) { // a list may hold empty elements
                    return false;
                }
            }
        }
        return true;
    }
}
