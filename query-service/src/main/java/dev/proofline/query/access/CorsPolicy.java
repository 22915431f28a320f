package dev.proofline.query.access;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Set;

/**
 * Cross-origin access for browser clients: none by default; {@code http.cors.origins} names the
 * origins allowed (exactly, e.g. {@code https://app.example.com}). An allowed origin may send the
 * headers a client needs (a key, a payment) and read the ones it must see (retry and payment ones).
 */
public final class CorsPolicy {
    static final String ALLOWED_HEADERS = "Authorization, Content-Type, Accept, Mcp-Session-Id, "
            + "Mcp-Protocol-Version, Last-Event-ID, Payment-Signature, "
            // x402's reference clients send it on the paid retry, asking to read Payment-Response.
            + "Access-Control-Expose-Headers";
    static final String EXPOSED_HEADERS = "Retry-After, WWW-Authenticate, Mcp-Session-Id, Payment-Required, "
            + "Payment-Response, Free-Allowance-Remaining, Free-Allowance-Limit, Free-Allowance-Resets";

    private final Set<String> origins;

    public CorsPolicy(List<String> origins) {
        this.origins = Set.copyOf(
                origins.stream().map(String::trim).filter(o -> !o.isEmpty()).toList());
    }

    /**
     * Adds the headers an allowed origin gets; answers a preflight itself.
     *
     * @return true when the request was a preflight and has been answered
     */
    boolean apply(HttpServletRequest request, HttpServletResponse response) {
        String origin = request.getHeader("Origin");
        if (origin == null || !origins.contains(origin)) {
            return false;
        }
        response.setHeader("Access-Control-Allow-Origin", origin);
        response.addHeader("Vary", "Origin");
        response.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS);
        if ("OPTIONS".equals(request.getMethod()) && request.getHeader("Access-Control-Request-Method") != null) {
            response.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE");
            response.setHeader("Access-Control-Allow-Headers", ALLOWED_HEADERS);
            response.setHeader("Access-Control-Max-Age", "600");
            response.setStatus(204);
            return true;
        }
        return false;
    }
}
