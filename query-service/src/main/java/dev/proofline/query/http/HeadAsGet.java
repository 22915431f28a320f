package dev.proofline.query.http;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.IOException;

/**
 * HEAD answered as GET would be, without the body (RFC 9110: the same status and headers). Javalin
 * answers a HEAD on any GET route with an empty 200 of its own, without running the route: a HEAD
 * for a receipt that does not exist said 200. Here the route sees GET, and Jetty, which knows the
 * request was HEAD, sends no body.
 */
final class HeadAsGet implements Filter {
    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        chain.doFilter("HEAD".equals(http.getMethod()) ? new AsGet(http) : request, response);
    }

    private static final class AsGet extends HttpServletRequestWrapper {
        AsGet(HttpServletRequest request) {
            super(request);
        }

        @Override
        public String getMethod() {
            return "GET";
        }
    }
}
