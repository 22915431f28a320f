package dev.proofline.query.mcp;

import dev.proofline.contract.ErrorDocument;
import dev.proofline.query.Answer;
import dev.proofline.query.Failures;
import dev.proofline.query.http.Responses;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tool's answer whatever happens inside it. The SDK turns an exception thrown by a tool into a bare
 * JSON-RPC error carrying the exception's message, which may quote the caller's arguments. A tool
 * answers as a REST route does instead: the uniform error document in a result marked
 * {@code isError}, {@code not_ready} while the stores move between instances, and for anything else
 * {@code internal_error} with one log line naming the class and where it was thrown.
 */
final class GuardedTool {
    private static final Logger LOG = LoggerFactory.getLogger(GuardedTool.class);

    private GuardedTool() {}

    static BiFunction<McpSyncServerExchange, McpSchema.CallToolRequest, McpSchema.CallToolResult> guarded(
            String name, BiFunction<McpSyncServerExchange, McpSchema.CallToolRequest, McpSchema.CallToolResult> tool) {
        return (exchange, request) -> {
            try {
                return tool.apply(exchange, request);
            } catch (RuntimeException | StackOverflowError e) {
                if (e instanceof RuntimeException thrown && Responses.isStreamsInTransition(thrown)) {
                    return McpEndpoint.result(Answer.notReady());
                }
                LOG.warn("MCP tool {} failed: {}", name, Failures.where(e));
                return McpEndpoint.result(Answer.error(ErrorDocument.internalError()));
            }
        };
    }
}
