package dev.proofline.query.http;

import dev.proofline.query.score.ScoreQueries;
import dev.proofline.reputation.AgentHistorySerde;
import dev.proofline.reputation.query.RoutedAgentHistories;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;

/**
 * {@code GET /score/{agent_id}}, {@code GET /reputation/{agent_id}}, and the internal route an
 * instance answers when another forwards a query for a key it owns.
 */
public final class ScoreRoutes implements RouteGroup {
    private final ScoreQueries queries;
    private final RoutedAgentHistories histories;

    public ScoreRoutes(ScoreQueries queries, RoutedAgentHistories histories) {
        this.queries = queries;
        this.histories = histories;
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.routes.get("/score/{agent_id}", ctx -> Responses.send(ctx, queries.score(ctx.pathParam("agent_id"))));
        cfg.routes.get(
                "/reputation/{agent_id}", ctx -> Responses.send(ctx, queries.reputation(ctx.pathParam("agent_id"))));
        cfg.routes.get("/score/", ctx -> Responses.send(ctx, queries.score("")));
        cfg.routes.get("/reputation/", ctx -> Responses.send(ctx, queries.reputation("")));
        cfg.routes.get(RoutedAgentHistories.INTERNAL_PATH + "{agent_id}", this::internalHistory);
    }

    /** Another instance asks the owner: answer from this store only, never forward again. */
    private void internalHistory(Context ctx) {
        var history = histories.findLocally(ctx.pathParam("agent_id"));
        if (history.isPresent()) {
            Responses.json(ctx, AgentHistorySerde.toJson(history.get()).toString());
        } else {
            ctx.status(404);
        }
    }
}
