package dev.proofline.query.access;

import dev.proofline.access.CallerKeys;
import dev.proofline.access.CallerRecord;
import dev.proofline.access.InstanceCredential;
import dev.proofline.access.Submitter;
import dev.proofline.contract.ErrorDocument;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The one place access is decided, for every route, REST and MCP alike, before any of them runs:
 * who is calling (a bearer key, another instance, or an anonymous client address), whether the
 * {@link AccessTable} lets them call this route (401 {@code unauthorized} with
 * {@code WWW-Authenticate: Bearer}, or 403 {@code forbidden}), and the headers every answer
 * carries (no sniffing, no framing, no caching of what is not public; a strict
 * Content-Security-Policy; CORS only for configured origins). A bad or revoked key is always 401,
 * on every route: it is never taken for "no key".
 */
public final class AccessFilter implements Filter {
    /** The dashboard's page: its own scripts, styles and calls only. */
    static final String PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    /** Everything else is data, never a page. */
    static final String DATA_POLICY = "default-src 'none'; frame-ancestors 'none'";

    private final CallerKeys keys;
    private final InstanceCredential instances;
    private final ClientAddresses addresses;
    private final CorsPolicy cors;

    public AccessFilter(CallerKeys keys, InstanceCredential instances, ClientAddresses addresses, CorsPolicy cors) {
        this.keys = keys;
        this.instances = instances;
        this.addresses = addresses;
        this.cors = cors;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        String path = request.getRequestURI();
        if (request.getHeader("X-HTTP-Method-Override") != null) {
            // Javalin would route by the overridden method while access was decided by the real one.
            securityHeaders(response, path, Audience.ANYONE);
            Refusal.send(request, response, 400, ErrorDocument.methodOverrideRefused());
            return;
        }
        Audience audience = AccessTable.audience(request.getMethod(), path);
        securityHeaders(response, path, audience);
        if (cors.apply(request, response)) {
            return; // a preflight, answered
        }
        java.util.List<String> authorizations = Collections.list(request.getHeaders("Authorization"));
        if (authorizations.size() > 1) {
            // Which one counts would be a guess (one valid key and one bad one): neither does.
            Refusal.send(
                    request,
                    response,
                    400,
                    ErrorDocument.invalidRequest(java.util.List.of(new dev.proofline.contract.FieldProblem(
                            "Authorization", "is sent more than once", "Send one Authorization header."))));
            return;
        }
        String authorization = authorizations.isEmpty() ? null : authorizations.get(0);
        if (authorization != null && audience == Audience.REGISTRY_READERS && !bearerScheme(authorization)) {
            authorization = null; // a registry client's Basic credentials, meant for whichever registry
        }
        Optional<CallerRecord> key = Optional.empty();
        if (authorization != null) {
            key = bearer(authorization).flatMap(keys::byToken);
            if (key.isEmpty()) {
                Refusal.send(request, response, 401, ErrorDocument.unauthorized(true));
                return;
            }
        }
        boolean instance = instances.accepts(request.getHeader(InstanceCredential.HEADER));
        if (request.getHeader(InstanceCredential.HEADER) != null && !instance) {
            Refusal.send(request, response, 401, ErrorDocument.unauthorized(true));
            return;
        }
        Submitter submitter = key.map(CallerRecord::submitter)
                .orElseGet(() -> Submitter.address(addresses.clientOf(request.getRemoteAddr(), forwardedFor(request))));
        RequestCaller caller = new RequestCaller(submitter, key.orElse(null), instance);
        if (!allowed(audience, caller, request)) {
            if (key.isEmpty()) {
                Refusal.send(request, response, 401, ErrorDocument.unauthorized(false));
            } else {
                Refusal.send(request, response, 403, ErrorDocument.forbidden());
            }
            return;
        }
        request.setAttribute(RequestCaller.ATTRIBUTE, caller);
        chain.doFilter(request, response);
    }

    private boolean allowed(Audience audience, RequestCaller caller, HttpServletRequest request) {
        return switch (audience) {
            case ANYONE, REGISTRY_READERS, SUBMITTER -> true;
            case OPERATOR -> caller.isOperator();
            case INSTANCE -> caller.instance() || caller.isOperator();
            case OPERATOR_OR_LOOPBACK -> caller.isOperator() || fromThisMachine(request);
        };
    }

    /**
     * A request made on this machine itself, not relayed: a loopback socket, a loopback Host (not a
     * name a rebinding DNS could point here), no cross-site Origin, and no proxy header.
     */
    private boolean fromThisMachine(HttpServletRequest request) {
        if (!isLoopback(request.getRemoteAddr())
                || addresses.isTrusted(request.getRemoteAddr())
                || request.getHeader("X-Forwarded-For") != null
                || request.getHeader("Forwarded") != null
                || request.getHeader("X-Real-IP") != null) {
            return false;
        }
        String host = hostOnly(request.getHeader("Host"));
        String origin = request.getHeader("Origin");
        return isLoopbackName(host) && (origin == null || isLoopbackName(hostOnly(originHost(origin))));
    }

    private static boolean isLoopbackName(String host) {
        return host != null && (host.equalsIgnoreCase("localhost") || isLoopback(host));
    }

    private static String originHost(String origin) {
        int scheme = origin.indexOf("://");
        return scheme < 0 ? origin : origin.substring(scheme + 3);
    }

    /** {@code host}, {@code host:port}, {@code [v6]:port} → the host alone. */
    private static String hostOnly(String hostHeader) {
        if (hostHeader == null) {
            return null;
        }
        String h = hostHeader.trim();
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end < 0 ? h : h.substring(1, end);
        }
        int colon = h.indexOf(':');
        return colon < 0 || h.indexOf(':', colon + 1) >= 0 ? h : h.substring(0, colon);
    }

    /** The token of {@code Bearer <token>} (scheme case-insensitive, RFC 6750); anything else is no token. */
    /** The token of a {@code Bearer} authorization, if it is one. */
    public static Optional<String> bearer(String authorization) {
        String trimmed = authorization.trim();
        if (trimmed.length() > 7
                && trimmed.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
            String token = trimmed.substring(7).trim();
            return token.isEmpty() || token.length() > 512 ? Optional.empty() : Optional.of(token);
        }
        return Optional.empty();
    }

    /** Whether the credentials are of the Bearer scheme at all, however malformed. */
    static boolean bearerScheme(String authorization) {
        String scheme = authorization.trim().split("\\s", 2)[0];
        return scheme.equalsIgnoreCase("bearer");
    }

    private static List<String> forwardedFor(HttpServletRequest request) {
        return Collections.list(request.getHeaders("X-Forwarded-For"));
    }

    private static boolean isLoopback(String address) {
        byte[] bytes = ClientAddresses.bytes(address);
        if (bytes == null) {
            return false;
        }
        if (bytes.length == 4) {
            return bytes[0] == 127;
        }
        for (int i = 0; i < 15; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[15] == 1;
    }

    private static void securityHeaders(HttpServletResponse response, String path, Audience audience) {
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("X-Frame-Options", "DENY");
        boolean page = path.equals("/dashboard")
                || path.startsWith("/dashboard/")
                || path.equals("/docs")
                || path.startsWith("/docs/");
        response.setHeader("Content-Security-Policy", page ? PAGE_POLICY : DATA_POLICY);
        boolean shared = audience == Audience.ANYONE || audience == Audience.REGISTRY_READERS;
        if (!shared || path.startsWith("/verify/") || path.equals("/mcp")) {
            response.setHeader("Cache-Control", "no-store"); // private: a receipt, a feed, a caller's answer
        }
    }
}
