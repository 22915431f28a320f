package dev.proofline.query.mcp;

import dev.proofline.access.Submitter;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.FieldProblem;
import dev.proofline.query.Answer;
import dev.proofline.query.access.RequestCaller;
import dev.proofline.query.http.RouteGroup;
import dev.proofline.query.payment.FreeAllowance;
import dev.proofline.query.payment.Metering;
import dev.proofline.query.payment.PaymentOffer;
import dev.proofline.query.payment.X402;
import dev.proofline.query.score.ScoreQueries;
import dev.proofline.query.verify.VerificationFrontDoor;
import dev.proofline.reputation.query.NotQueryableException;
import io.javalin.config.JavalinConfig;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.DispatcherType;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP over Streamable HTTP at {@code /mcp}, served by the official Java SDK as a servlet inside the
 * same Jetty as the REST routes. Its two tools answer exactly what REST answers, because they call
 * the same services: {@code verify_schema} (arguments = the request) and
 * {@code get_verification_record} ({@code agent_id}). Errors come back as the section 6 document
 * inside a tool result marked {@code isError}. Access is decided for {@code /mcp} as for every
 * route ({@code docs/access.md}): a bad key is 401 before any tool runs, and {@code verify_schema}
 * records its caller as the receipt's submitter. Host and Origin headers are checked (DNS-rebinding
 * protection): only this deployment's own addresses are accepted.
 */
public final class McpEndpoint implements RouteGroup, AutoCloseable {
    public static final String PATH = "/mcp";
    private static final String CALLER = "proofline.caller";
    /** The resource a paid MCP verification names in its PaymentRequired (the x402 MCP transport's convention). */
    static final String RESOURCE = "mcp://tool/verify_schema";

    private final HttpServletStreamableServerTransportProvider transport;
    /**
     * How often the SDK closes sessions idle since its last sweep (its default is 30 minutes): an idle
     * session lives one to two of these, so a client that went quiet holds a slot for at most ten.
     */
    static final Duration SESSION_SWEEP = Duration.ofMinutes(5);

    private final McpSyncServer server;
    private final int maxConnections;
    private final int maxMessageBytes;
    private final McpSessions sessions;
    private final java.util.Set<String> toolNames;
    /** The DNS-rebinding check: the SDK's, run by the SDK and, ahead of Proofline's own refusals, by the filter. */
    private final DefaultServerTransportSecurityValidator originAndHost;

    public McpEndpoint(
            VerificationFrontDoor verification,
            Metering metering,
            ScoreQueries scores,
            String version,
            List<String> allowedOrigins,
            List<String> allowedHosts,
            int maxConnections,
            int maxSessions) {
        this.maxConnections = maxConnections;
        this.maxMessageBytes = (int) Math.min(Integer.MAX_VALUE, 2L * verification.maxRequestBytes());
        this.sessions = new McpSessions(maxSessions, SESSION_SWEEP.multipliedBy(2));
        this.originAndHost = DefaultServerTransportSecurityValidator.builder()
                .allowedOrigins(allowedOrigins)
                .allowedHosts(allowedHosts)
                .build();
        this.transport = HttpServletStreamableServerTransportProvider.builder()
                .mcpEndpoint(PATH)
                .sessionSweepInterval(SESSION_SWEEP)
                // The access filter has already said who is calling; each tool call takes it from here.
                .contextExtractor(McpEndpoint::context)
                .securityValidator(originAndHost)
                .build();
        List<SyncToolSpecification> tools =
                List.of(verifySchema(verification, metering), verificationRecord(scores, metering));
        this.toolNames = tools.stream().map(tool -> tool.tool().name()).collect(java.util.stream.Collectors.toSet());
        this.server = McpServer.sync(transport)
                .serverInfo("Proofline", version)
                .capabilities(
                        McpSchema.ServerCapabilities.builder().tools(false).build())
                // Proofline checks every argument itself, so a wrong one gets the error document
                // naming the field, as over REST, not the SDK's schema-validation text.
                .validateToolInputs(false)
                .tools(tools)
                .build();
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.jetty.modifyServletContextHandler(context -> {
            ServletHolder holder = new ServletHolder(transport);
            holder.setAsyncSupported(true); // Streamable HTTP answers may stream as server-sent events
            context.addServlet(holder, PATH);
            FilterHolder limit = new FilterHolder(new McpConnectionLimit(maxConnections));
            limit.setAsyncSupported(true);
            context.addFilter(limit, PATH, EnumSet.of(DispatcherType.REQUEST));
            FilterHolder errors = new FilterHolder(new McpTransportErrors(
                    transport.protocolVersions(), maxMessageBytes, originAndHost, sessions, toolNames));
            errors.setAsyncSupported(true);
            context.addFilter(errors, PATH, EnumSet.of(DispatcherType.REQUEST));
            FilterHolder sessionLimit = new FilterHolder(new McpSessionLimit(sessions));
            sessionLimit.setAsyncSupported(true);
            context.addFilter(sessionLimit, PATH, EnumSet.of(DispatcherType.REQUEST));
        });
    }

    private static SyncToolSpecification verifySchema(VerificationFrontDoor verification, Metering metering) {
        McpSchema.Tool tool = McpSchema.Tool.builder()
                .name("verify_schema")
                .description("Verify submitted_output against expected_schema (JSON Schema), rules and bounds; "
                        + "returns the Ed25519-signed receipt, or an error document naming each invalid field. "
                        + "task_id, expected_schema and submitted_output are required.")
                // No "required" here: Proofline checks the request itself, so a caller always gets the
                // section 6 error document naming each field, not the SDK's own validation message.
                .inputSchema(Map.of(
                        "type",
                        "object",
                        "properties",
                        Map.of(
                                "task_id", Map.of("type", "string"),
                                "agent_id", Map.of("type", List.of("string", "null")),
                                "expected_schema", Map.of("type", "object"),
                                "submitted_output", Map.of(),
                                "rules", Map.of("type", List.of("array", "null")),
                                "bounds", Map.of("type", List.of("object", "null")),
                                "enforce_rules", Map.of("type", "boolean"),
                                "strict_content_check", Map.of("type", "boolean"),
                                "detail", Map.of("enum", List.of("full", "compact")))))
                .build();
        return SyncToolSpecification.builder()
                .tool(tool)
                .callHandler(GuardedTool.guarded(tool.name(), (exchange, request) -> {
                    // The caller's own bytes; the SDK's maps only when the transport did not see them.
                    byte[] body = exchange.transportContext().get(ToolArguments.ATTRIBUTE) instanceof byte[] sent
                            ? sent
                            : StrictJson.MAPPER.writeValueAsBytes(
                                    request.arguments() == null ? Map.of() : request.arguments());
                    RequestCaller caller = caller(exchange);
                    PaymentOffer offer = offer(request);
                    try {
                        return result(verification.verify(
                                body, caller.submitter(), metering.verification(caller, offer, RESOURCE)));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt(); // shutting down
                        return result(Answer.notReady());
                    }
                }))
                .build();
    }

    private static SyncToolSpecification verificationRecord(ScoreQueries scores, Metering metering) {
        McpSchema.Tool tool = McpSchema.Tool.builder()
                .name("get_verification_record")
                .description(
                        "The agent's trust score, signed with the trust-score context (reason no_data when it has no history).")
                .inputSchema(Map.of(
                        "type",
                        "object",
                        "required",
                        List.of("agent_id"),
                        "properties",
                        Map.of(
                                "agent_id",
                                Map.of("type", "string"),
                                "as_of",
                                Map.of(
                                        "type",
                                        "string",
                                        "description",
                                        "RFC 3339 time or epoch milliseconds for decayed_score and windows;"
                                                + " now when absent"))))
                .build();
        return SyncToolSpecification.builder()
                .tool(tool)
                .callHandler(GuardedTool.guarded(tool.name(), (exchange, request) -> {
                    Object agentId = request.arguments() == null
                            ? null
                            : request.arguments().get("agent_id");
                    Object asOf = request.arguments() == null
                            ? null
                            : request.arguments().get("as_of");
                    if (!(agentId instanceof String) || (asOf != null && !isTime(asOf))) {
                        return result(Answer.error(ErrorDocument.invalidRequest(List.of(
                                agentId instanceof String
                                        ? new FieldProblem(
                                                "as_of",
                                                "is not a time",
                                                "Send an RFC 3339 time or epoch milliseconds, or leave as_of out.")
                                        : new FieldProblem(
                                                "agent_id",
                                                agentId == null ? "is required" : "is not a string",
                                                "Send the agent's id as a string: {\"agent_id\": \"seller-7\"}.")))));
                    }
                    RequestCaller caller = caller(exchange);
                    PaymentOffer offer = offer(request);
                    try {
                        return result(metering.score(
                                scores.score((String) agentId, asOf == null ? null : asOf.toString()),
                                caller,
                                offer,
                                "mcp://tool/get_verification_record"));
                    } catch (NotQueryableException e) {
                        return result(Answer.notReady());
                    }
                }))
                .build();
    }

    /**
     * An answer as a tool result: the JSON as text content, marked {@code isError} for an error. What
     * REST says in headers travels as the x402 MCP transport says: a payment requirement becomes the
     * result's structured content and, wrapped as {@code {"x402/error": {code, message, data}}}, its
     * text; a settlement goes in {@code _meta} under {@code x402/payment-response}, and a failed one in
     * the requirement too; the allowance goes in {@code _meta} under {@code proofline/free-allowance}.
     */
    static McpSchema.CallToolResult result(Answer answer) {
        McpSchema.CallToolResult.Builder result =
                McpSchema.CallToolResult.builder().isError(answer.isError());
        Map<String, Object> meta = new java.util.LinkedHashMap<>();
        String required = answer.headers().get(X402.PAYMENT_REQUIRED);
        String settled = answer.headers().get(X402.PAYMENT_RESPONSE);
        if (required != null) {
            ObjectNode paymentRequired = (ObjectNode) decoded(required);
            if (settled != null) { // a settlement that failed: the terms, with what the settlement said
                paymentRequired.set(X402.MCP_PAYMENT_RESPONSE, decoded(settled));
            }
            ObjectNode wrapped = StrictJson.NODES.objectNode();
            wrapped.putObject("x402/error")
                    .put("code", 402)
                    .put("message", paymentRequired.path("error").asString())
                    .set("data", paymentRequired);
            result.addTextContent(wrapped.toString())
                    .structuredContent(StrictJson.MAPPER.convertValue(paymentRequired, Map.class));
            JsonNode error = StrictJson.parse(answer.json());
            meta.put("proofline/error", StrictJson.MAPPER.convertValue(error, Map.class));
            if (error.has("free_trial")) {
                meta.put(
                        error.path("code").asString(),
                        StrictJson.MAPPER.convertValue(error.get("free_trial"), Map.class));
            }
        } else {
            result.addTextContent(answer.json());
        }
        if (settled != null) {
            meta.put(X402.MCP_PAYMENT_RESPONSE, StrictJson.MAPPER.convertValue(decoded(settled), Map.class));
        }
        if (answer.headers().containsKey(FreeAllowance.REMAINING)) {
            meta.put(
                    "proofline/free-allowance",
                    Map.of(
                            "remaining", Long.parseLong(answer.headers().get(FreeAllowance.REMAINING)),
                            "limit", Long.parseLong(answer.headers().get(FreeAllowance.LIMIT)),
                            "resets", answer.headers().get(FreeAllowance.RESETS)));
        }
        if (!meta.isEmpty()) {
            result.meta(meta);
        }
        return result.build();
    }

    /** {@code as_of} as a text (RFC 3339 or epoch milliseconds, checked by the score query) or a whole number. */
    private static boolean isTime(Object asOf) {
        return asOf instanceof String
                || asOf instanceof Integer
                || asOf instanceof Long
                || asOf instanceof java.math.BigInteger;
    }

    /**
     * What a tool call learns of its HTTP request: who is calling (as the access filter established
     * it) and, for a tools/call, its arguments exactly as sent ({@link ToolArguments}).
     */
    private static McpTransportContext context(jakarta.servlet.http.HttpServletRequest request) {
        Map<String, Object> context = new java.util.HashMap<>();
        context.put(CALLER, RequestCaller.of(request));
        if (request.getAttribute(ToolArguments.ATTRIBUTE) instanceof byte[] arguments) {
            context.put(ToolArguments.ATTRIBUTE, arguments);
        }
        return McpTransportContext.create(context);
    }

    /** Who is calling, as the access filter established it for this HTTP request. */
    private static RequestCaller caller(io.modelcontextprotocol.server.McpSyncServerExchange exchange) {
        Object known = exchange.transportContext().get(CALLER);
        return known instanceof RequestCaller c ? c : new RequestCaller(Submitter.address("unknown"), null, false);
    }

    /** The x402 payment in the request's {@code _meta}, if any. */
    private static PaymentOffer offer(McpSchema.CallToolRequest request) {
        Object payment = request.meta() == null ? null : request.meta().get(X402.MCP_PAYMENT);
        return payment == null ? PaymentOffer.NONE : new PaymentOffer.Mcp(StrictJson.MAPPER.valueToTree(payment));
    }

    private static JsonNode decoded(String base64) {
        return StrictJson.parse(java.util.Base64.getDecoder().decode(base64));
    }

    @Override
    public void close() {
        server.close();
    }
}
