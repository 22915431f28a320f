package dev.proofline.query.http;

import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.FieldProblem;
import dev.proofline.query.access.Refusal;
import dev.proofline.query.discovery.DiscoveryDocuments;
import dev.proofline.query.payment.X402;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;

/**
 * HEAD answered as GET would be, without the body (RFC 9110: the same status and headers). Javalin
 * answers a HEAD on any GET route with an empty 200 of its own, without running the route: a HEAD
 * for a receipt that does not exist said 200. Here the route sees GET, and Jetty, which knows the
 * request was HEAD, sends no body.
 *
 * <p>Except where running the route would do something: the live feed would hold a stream (and a
 * client slot) open for nobody to read, so its route answers HEAD itself ({@link LiveReceipts}); and a payment is never
 * taken for an answer whose body is not sent.
 */
final class HeadAsGet implements Filter {
    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        if (!"HEAD".equals(http.getMethod()) || isLiveFeed(http.getRequestURI())) {
            chain.doFilter(request, response);
            return;
        }
        if (http.getHeader(X402.PAYMENT_SIGNATURE) != null) {
            ErrorDocument error = ErrorDocument.invalidRequest(List.of(new FieldProblem(
                    X402.PAYMENT_SIGNATURE,
                    "is never taken on HEAD, whose answer has no body",
                    "Send the paid request as GET.")));
            Refusal.send(http, (HttpServletResponse) response, 400, error);
            return;
        }
        chain.doFilter(new AsGet(http), response);
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

    /** The feed's path as the router matches it: Javalin ignores trailing slashes. */
    static boolean isLiveFeed(String requestUri) {
        int end = requestUri.length();
        while (end > 1 && requestUri.charAt(end - 1) == '/') {
            end--;
        }
        return DiscoveryDocuments.LIVE_FEED_PATH.equals(requestUri.substring(0, end));
    }
}
