package dev.proofline.query.mcp;

import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.FieldProblem;
import dev.proofline.query.http.NoStoreKept;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityException;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityValidator;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * What the MCP SDK's transport answers when it refuses a request before any tool runs (no session
 * id, an {@code Accept} or {@code Content-Type} it does not take, an unknown session, a body that is
 * no JSON-RPC message), and any method it does not serve: the uniform error document, whose status
 * is the one sent. Left alone, the SDK writes its exception object as JSON, stack trace included,
 * and answers other methods with an empty body.
 *
 * <p>The SDK's own message is only used to choose the field problem, never copied: some of its
 * messages quote what the caller sent (a session id, a parser's view of the body).
 */
final class McpTransportErrors implements Filter {
    /**
     * The methods served (OPTIONS for CORS preflights). No GET: Proofline never sends a message a
     * client did not ask for, so it offers no listening stream, and Streamable HTTP's answer for
     * that is 405. Official clients open one per session and take 405 as "none offered"; a stream
     * kept open would hold one of the {@code mcp.max.connections} slots for as long as the client
     * stays, so that many idle clients would lock every other caller out.
     */
    static final Set<String> METHODS = Set.of("POST", "DELETE", "OPTIONS");

    static final String ALLOW = "POST, DELETE, OPTIONS";

    private static final String ROOTS_CHANGED = "notifications/roots/list_changed";

    /** The request attribute holding a POSTed message's method, when it names one as a string. */
    static final String METHOD_ATTRIBUTE = "dev.proofline.mcp.method";

    private final List<String> protocolVersions;
    private final int maxMessageBytes;
    private final ServerTransportSecurityValidator originAndHost;
    private final McpSessions sessions;
    private final Set<String> tools;

    /**
     * @param protocolVersions the MCP versions the transport negotiates
     * @param maxMessageBytes the largest message taken: room for a request of {@code max.request.bytes}
     *     and its JSON-RPC envelope, whose own size the verification then checks exactly
     * @param sessions the sessions open here: a message for any other is the SDK's to refuse
     * @param tools the names of the tools served
     */
    McpTransportErrors(
            List<String> protocolVersions,
            int maxMessageBytes,
            ServerTransportSecurityValidator originAndHost,
            McpSessions sessions,
            Set<String> tools) {
        this.protocolVersions = List.copyOf(protocolVersions);
        this.maxMessageBytes = maxMessageBytes;
        this.originAndHost = originAndHost;
        this.sessions = sessions;
        this.tools = Set.copyOf(tools);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletResponse http = (HttpServletResponse) response;
        request = new FoldedMediaTypes((HttpServletRequest) request);
        if (!METHODS.contains(((HttpServletRequest) request).getMethod())) {
            http.setHeader("Allow", ALLOW);
            send(http, 405, ErrorDocument.methodNotAllowed());
            return;
        }
        if ("OPTIONS".equals(((HttpServletRequest) request).getMethod())) {
            // The servlet's own answer would name GET, HEAD and TRACE, which this transport refuses.
            http.setHeader("Allow", ALLOW);
            http.setStatus(204);
            return;
        }
        int refused = originOrHostRefusal((HttpServletRequest) request);
        if (refused != 0) {
            // A page of another site (DNS rebinding) learns nothing from this server, not even how
            // its message is wrong, and touches no session: refused as the SDK would (403 or 421),
            // before anything else runs. Its body is never read.
            http.setHeader("Connection", "close");
            send(http, refused, refusal(refused));
            return;
        }
        String version = ((HttpServletRequest) request).getHeader("MCP-Protocol-Version");
        // Within a session the header names the version initialize agreed on; one this server does
        // not speak MUST be 400. An initialize is left to negotiate, whatever it sends.
        if (version != null
                && ((HttpServletRequest) request).getHeader("Mcp-Session-Id") != null
                && !protocolVersions.contains(version)) {
            send(
                    http,
                    400,
                    ErrorDocument.invalidRequest(List.of(new FieldProblem(
                            "MCP-Protocol-Version",
                            "is not a version this server speaks",
                            "Send the version initialize agreed on, one of " + String.join(", ", protocolVersions)
                                    + "."))));
            return;
        }
        byte[] body = null;
        if ("POST".equals(((HttpServletRequest) request).getMethod())) {
            long declared = request.getContentLengthLong();
            if (declared > maxMessageBytes) {
                refuseTooLarge(
                        http,
                        ErrorDocument.payloadTooLarge((int) Math.min(declared, Integer.MAX_VALUE), maxMessageBytes));
                return;
            }
            ReplayedBody replayed;
            try {
                replayed = new ReplayedBody((HttpServletRequest) request, maxMessageBytes);
            } catch (IOException notReceived) {
                // The caller's body stopped arriving (Jetty's idle timeout) or broke HTTP framing: its
                // doing, answered as such, not as a failure here.
                if (!http.isCommitted()) {
                    http.setHeader("Connection", "close");
                    boolean timedOut = causedByTimeout(notReceived);
                    send(
                            http,
                            timedOut ? 408 : 400,
                            timedOut ? ErrorDocument.bodyNotReceived() : ErrorDocument.malformedHttpRequest());
                }
                return;
            }
            if (!replayed.complete()) {
                refuseTooLarge(http, ErrorDocument.payloadTooLarge(maxMessageBytes));
                return;
            }
            if (WholeUnicode.hasLoneSurrogate(replayed.inspected())) {
                // The SDK would take it and write it back (an id, say) as bytes that are not UTF-8.
                send(
                        http,
                        400,
                        ErrorDocument.invalidRequest(
                                List.of(
                                        new FieldProblem(
                                                "body",
                                                "contains a lone surrogate (an escape from \\ud800 to \\udfff without its pair),"
                                                        + " which has no UTF-8 encoding",
                                                "Send whole Unicode text: pair each surrogate escape, or send the character itself."))));
                return;
            }
            JsonNode message; // strictly read: null when the body has no one meaning
            JsonNode asTheSdkReadsIt; // what the SDK will act on: an initialize opens a session
            FieldProblem messageProblem;
            try {
                message = StrictJson.parse(replayed.inspected());
                asTheSdkReadsIt = message;
                // The SDK takes some messages JSON-RPC 2.0 forbids ("jsonrpc": "1.0", params that are
                // a string) and answers them as if they were whole.
                messageProblem = MessageShape.problem(message);
            } catch (RuntimeException notStrict) {
                message = null;
                // JSON the SDK would read but that is not one meaning (a key twice, nesting past 128
                // levels), or bytes that are not UTF-8, which the SDK decodes with U+FFFD in their
                // place: a tool would run on what the SDK guessed. Text that is no JSON at all is the
                // SDK's to refuse.
                asTheSdkReadsIt = MessageShape.parse(new String(replayed.inspected(), StandardCharsets.UTF_8));
                messageProblem = asTheSdkReadsIt != null
                        ? new FieldProblem(
                                "body",
                                "is " + notStrict.getMessage(),
                                "Send one JSON-RPC message as UTF-8 JSON with no key twice.")
                        : null;
            }
            if (asTheSdkReadsIt != null && asTheSdkReadsIt.path("method").isString()) {
                // Read by the session limit: an initialize, however malformed, is counted as one.
                replayed.setAttribute(
                        METHOD_ATTRIBUTE, asTheSdkReadsIt.get("method").asString());
            }
            if (messageProblem != null && !sdkRefusesFirst((HttpServletRequest) request, asTheSdkReadsIt)) {
                send(http, 400, ErrorDocument.invalidRequest(List.of(messageProblem)));
                return;
            }
            if (message != null
                    && ROOTS_CHANGED.equals(message.path("method").asString(""))
                    && !message.has("id")
                    && !sdkRefusesFirst((HttpServletRequest) request, message)) {
                // The SDK's handler asks the client for its roots over the listening stream this
                // server never offers, and fails (500). Proofline uses no roots: accepted, as any
                // notification is.
                http.setStatus(202);
                return;
            }
            JsonNode refusal = ToolCallShape.refusal(message, tools);
            if (refusal != null && !sdkRefusesFirst((HttpServletRequest) request, message)) {
                http.setStatus(200);
                http.setContentType("application/json");
                http.setCharacterEncoding("UTF-8");
                http.getWriter().write(refusal.toString());
                return;
            }
            if (message != null && "tools/call".equals(message.path("method").asString(""))) {
                byte[] arguments = ToolArguments.of(replayed.inspected());
                if (arguments != null) {
                    replayed.setAttribute(ToolArguments.ATTRIBUTE, arguments);
                }
            }
            request = replayed;
            body = replayed.inspected(); // the whole body: a longer one was refused above
        }
        DocumentedErrors answer = new DocumentedErrors(http, (HttpServletRequest) request, body);
        chain.doFilter(request, answer);
        if (!request.isAsyncStarted()) {
            answer.finish(); // an error written but never flushed still goes out as the document
        }
    }

    /**
     * Whether the SDK refuses this POST for its headers or session before it reads the message: a
     * header it does not take, or a session not open here (any message but {@code initialize} needs
     * one; {@code message} is null when it is not JSON). Proofline's own answer to a message the SDK
     * cannot read comes only after those, as the
     * SDK's would.
     */
    private boolean sdkRefusesFirst(HttpServletRequest request, JsonNode message) {
        String accept = lowerCase(request.getHeader("Accept"));
        if (!lowerCase(request.getContentType()).contains("application/json")
                || !accept.contains("application/json")
                || !accept.contains("text/event-stream")) {
            return true;
        }
        if (message != null && "initialize".equals(message.path("method").asString(""))) {
            return false;
        }
        String session = request.getHeader("Mcp-Session-Id");
        return session == null || !sessions.open(session);
    }

    private static String lowerCase(String header) {
        return header == null ? "" : header.toLowerCase(java.util.Locale.ROOT);
    }

    /** The SDK's status for a request from another Origin or Host (403, 421), or 0 when it is from this deployment. */
    private int originOrHostRefusal(HttpServletRequest request) {
        Map<String, List<String>> headers = new HashMap<>();
        for (String name : List.of("Origin", "Host")) {
            List<String> values = Collections.list(request.getHeaders(name));
            if (!values.isEmpty()) {
                headers.put(name, values);
            }
        }
        try {
            originAndHost.validateHeaders(headers);
            return 0;
        } catch (ServerTransportSecurityException refused) {
            return refused.getStatusCode() == 421 ? 421 : 403;
        }
    }

    /** 413, and the connection closed: the rest of the body is never read. */
    private static void refuseTooLarge(HttpServletResponse http, ErrorDocument tooLarge) throws IOException {
        http.setHeader("Connection", "close");
        send(http, 413, tooLarge);
    }

    private static boolean causedByTimeout(Throwable e) {
        Throwable cause = e;
        for (int depth = 0; cause != null && depth < 8; depth++, cause = cause.getCause()) {
            if (cause instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The document for a refusal the SDK answered with {@code status}. Which header or field is at
     * fault is read from the request, as the SDK checks it, never from the SDK's message: that may
     * quote the caller's body, whose words would then choose the field.
     *
     * @param request the refused request, or null when unknown
     * @param bodyProblem what is wrong with the message itself, when known ({@link MessageShape})
     */
    static ErrorDocument document(int status, HttpServletRequest request, FieldProblem bodyProblem) {
        if (status >= 500) {
            return ErrorDocument.internalError();
        }
        String accept =
                request == null ? "application/json, text/event-stream" : lowerCase(request.getHeader("Accept"));
        String contentType = request == null ? "application/json" : lowerCase(request.getContentType());
        boolean post = request != null && "POST".equals(request.getMethod());
        boolean namesSession = request == null || request.getHeader("Mcp-Session-Id") != null;
        boolean initialize = request != null && "initialize".equals(request.getAttribute(METHOD_ATTRIBUTE));
        FieldProblem problem;
        if (status == 404) {
            problem = new FieldProblem(
                    "Mcp-Session-Id",
                    "names no open session",
                    "Initialize a new session: a session ends when it is deleted, left idle or the server restarts.");
        } else if (status == 415 || (post && !contentType.contains("application/json"))) {
            problem = new FieldProblem(
                    "Content-Type", "is not application/json", "Send the JSON-RPC message as application/json.");
        } else if (post && !(accept.contains("application/json") && accept.contains("text/event-stream"))) {
            problem = new FieldProblem(
                    "Accept",
                    "does not accept how this request is answered",
                    "Send Accept: application/json, text/event-stream.");
        } else if (bodyProblem != null) {
            problem = bodyProblem; // the SDK reads the message before it looks for the session
        } else if (!namesSession && !initialize) {
            problem = new FieldProblem(
                    "Mcp-Session-Id", "is required", "Send the Mcp-Session-Id header the initialize response gave.");
        } else {
            problem = new FieldProblem(
                    "body",
                    "is not a JSON-RPC 2.0 message this session takes",
                    "Send one JSON-RPC 2.0 request, notification or response, starting with initialize.");
        }
        return ErrorDocument.invalidRequest(List.of(problem));
    }

    /** The document for a refusal the SDK sent as a bare status: 421 names the Host, 403 the Origin. */
    static ErrorDocument refusal(int status) {
        return switch (status) {
            case 421 ->
                ErrorDocument.invalidRequest(List.of(new FieldProblem(
                        "Host",
                        "is not this deployment's",
                        "Call the deployment at its own address (its public URL); other hosts are refused, against DNS"
                                + " rebinding.")));
            case 403 ->
                ErrorDocument.invalidRequest(List.of(new FieldProblem(
                        "Origin",
                        "is not this deployment's",
                        "Call /mcp from a page of this deployment, or from a client that sends no Origin.")));
            default -> document(status, null, null);
        };
    }

    private static void send(HttpServletResponse http, int status, ErrorDocument error) throws IOException {
        http.setStatus(status);
        http.setContentType("application/json");
        http.setCharacterEncoding("UTF-8");
        http.getWriter().write(error.toJson(status).toString());
        http.getWriter().flush();
    }

    /**
     * Passes every answer through but an error the SDK writes: that text is held, and replaced by
     * the document when the SDK flushes it (which it does at once, possibly on another thread).
     */
    private static final class DocumentedErrors extends NoStoreKept {
        private final HttpServletRequest request;
        private final byte[] body;
        private int status = 200;
        private PrintWriter held;

        /** @param body the whole body of a POST, or null */
        DocumentedErrors(HttpServletResponse response, HttpServletRequest request, byte[] body) {
            super(response);
            this.request = request;
            this.body = body;
        }

        /**
         * The SDK fails (500) on some bodies that are no message at all, and refuses others (400)
         * without saying which field: that is the caller's fault, said so, naming it. Looked at only
         * on an error, so an answered request's body is parsed once, by the SDK.
         */
        private FieldProblem bodyProblem() {
            return body == null ? null : MessageShape.problem(MessageShape.parse(body));
        }

        @Override
        public void setStatus(int status) {
            this.status = status;
            super.setStatus(status);
        }

        void finish() {
            if (held != null) {
                held.flush();
            }
        }

        /** The SDK refuses a Host or Origin that is not this deployment's (against DNS rebinding) this way. */
        @Override
        public void sendError(int status, String message) throws IOException {
            sendError(status);
        }

        @Override
        public void sendError(int status) throws IOException {
            this.status = status;
            send(
                    (HttpServletResponse) getResponse(),
                    status,
                    status == 421 || status == 403 ? refusal(status) : document(status, request, bodyProblem()));
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            if (status < 400) {
                return super.getWriter();
            }
            if (held == null) {
                StringWriter text = new StringWriter();
                HttpServletResponse real = (HttpServletResponse) getResponse();
                held = new PrintWriter(text) {
                    private boolean replaced;

                    @Override
                    public void flush() {
                        if (!replaced) {
                            replaced = true;
                            try {
                                FieldProblem bodyProblem = bodyProblem();
                                if (status >= 500 && bodyProblem != null) {
                                    send(real, 400, ErrorDocument.invalidRequest(List.of(bodyProblem)));
                                } else {
                                    send(real, status, document(status, request, bodyProblem));
                                }
                            } catch (IOException e) {
                                setError(); // the client went away: nothing to answer
                            }
                        }
                    }

                    @Override
                    public void close() {
                        flush();
                    }
                };
            }
            return held;
        }
    }
}
