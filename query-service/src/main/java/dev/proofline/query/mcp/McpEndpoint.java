package dev.proofline.query.mcp;

import dev.proofline.access.Submitter;
import dev.proofline.attestor.StrictJson;
import dev.proofline.query.Answer;
import dev.proofline.query.access.RequestCaller;
import dev.proofline.query.http.RouteGroup;
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
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletHolder;

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
    private static final String SUBMITTER = "proofline.submitter";

    private final HttpServletStreamableServerTransportProvider transport;
    private final McpSyncServer server;
    private final int maxConnections;

    public McpEndpoint(
            VerificationFrontDoor verification,
            ScoreQueries scores,
            String version,
            List<String> allowedOrigins,
            List<String> allowedHosts,
            int maxConnections) {
        this.maxConnections = maxConnections;
        this.transport = HttpServletStreamableServerTransportProvider.builder()
                .mcpEndpoint(PATH)
                // The access filter has already said who is calling; each tool call takes it from here.
                .contextExtractor(request -> McpTransportContext.create(
                        Map.of(SUBMITTER, RequestCaller.of(request).submitter())))
                .securityValidator(DefaultServerTransportSecurityValidator.builder()
                        .allowedOrigins(allowedOrigins)
                        .allowedHosts(allowedHosts)
                        .build())
                .build();
        this.server = McpServer.sync(transport)
                .serverInfo("Proofline", version)
                .capabilities(
                        McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(verifySchema(verification), verificationRecord(scores))
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
        });
    }

    private static SyncToolSpecification verifySchema(VerificationFrontDoor verification) {
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
                .callHandler((exchange, request) -> {
                    byte[] body = StrictJson.MAPPER.writeValueAsBytes(
                            request.arguments() == null ? Map.of() : request.arguments());
                    Object submitter = exchange.transportContext().get(SUBMITTER);
                    try {
                        return result(verification.verify(
                                body, submitter instanceof Submitter known ? known : Submitter.address("unknown")));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt(); // shutting down
                        return result(Answer.notReady());
                    }
                })
                .build();
    }

    private static SyncToolSpecification verificationRecord(ScoreQueries scores) {
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
                        Map.of("agent_id", Map.of("type", "string"))))
                .build();
        return SyncToolSpecification.builder()
                .tool(tool)
                .callHandler((exchange, request) -> {
                    Object agentId = request.arguments() == null
                            ? null
                            : request.arguments().get("agent_id");
                    try {
                        return result(scores.score(agentId == null ? "" : agentId.toString()));
                    } catch (NotQueryableException e) {
                        return result(Answer.notReady());
                    }
                })
                .build();
    }

    private static McpSchema.CallToolResult result(Answer answer) {
        return McpSchema.CallToolResult.builder()
                .addTextContent(answer.json())
                .isError(answer.isError())
                .build();
    }

    @Override
    public void close() {
        server.close();
    }
}
