package dev.proofline.reputation;

import dev.proofline.engine.ErrorDocument;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;

/**
 * {@code GET /score/{agent_id}}, {@code GET /reputation/{agent_id}}, and the internal route an
 * instance answers when another forwards a query for a key it owns.
 */
public final class ScoreRoutes {
    private final ScoreQueries queries;
    private final RoutedAgentHistories histories;

    public ScoreRoutes(ScoreQueries queries, RoutedAgentHistories histories) {
        this.queries = queries;
        this.histories = histories;
    }

    public void mount(JavalinConfig cfg) {
        cfg.routes.get("/score/{agent_id}", ctx -> queries.score(ctx.pathParam("agent_id")).writeTo(ctx));
        cfg.routes.get("/reputation/{agent_id}", ctx -> queries.reputation(ctx.pathParam("agent_id")).writeTo(ctx));
        cfg.routes.get("/score/", ctx -> queries.score("").writeTo(ctx));
        cfg.routes.get("/reputation/", ctx -> queries.reputation("").writeTo(ctx));
        cfg.routes.get(RoutedAgentHistories.INTERNAL_PATH + "{agent_id}", this::internalHistory);
    }

    /** Another instance asks the owner: answer from this store only, never forward again. */
    private void internalHistory(Context ctx) {
        try {
            var history = histories.findLocally(ctx.pathParam("agent_id"));
            if (history.isPresent()) {
                ctx.contentType("application/json").result(AgentHistorySerde.toJson(history.get()).toString());
            } else {
                ctx.status(404);
            }
        } catch (AgentHistories.NotQueryableException e) {
            VerificationFrontDoor.error(ErrorDocument.notReady(ScoreQueries.RETRY_AFTER_SECONDS)).writeTo(ctx);
        }
    }

}
