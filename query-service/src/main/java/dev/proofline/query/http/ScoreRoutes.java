package dev.proofline.query.http;

import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.FieldProblem;
import dev.proofline.query.Answer;
import dev.proofline.query.access.RequestCaller;
import dev.proofline.query.payment.Metering;
import dev.proofline.query.payment.PaymentOffer;
import dev.proofline.query.payment.X402;
import dev.proofline.query.score.ScoreQueries;
import dev.proofline.reputation.query.RoutedAgentHistories;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.List;

/**
 * {@code GET /score/{agent_id}}, {@code GET /reputation/{agent_id}}, and the internal route an
 * instance answers when another forwards a query for a key it owns.
 */
public final class ScoreRoutes implements RouteGroup {
    private final ScoreQueries queries;
    private final RoutedAgentHistories histories;
    private final Metering metering;
    private final String publicUrl;

    public ScoreRoutes(ScoreQueries queries, RoutedAgentHistories histories, Metering metering, String publicUrl) {
        this.queries = queries;
        this.histories = histories;
        this.metering = metering;
        this.publicUrl = publicUrl;
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.routes.get("/score/{agent_id}", this::score);
        cfg.routes.get("/reputation/{agent_id}", ctx -> {
            if (asOfRepeated(ctx)) {
                Responses.send(ctx, REPEATED_AS_OF);
                return;
            }
            Responses.send(ctx, queries.reputation(ctx.pathParam("agent_id"), ctx.queryParam("as_of")));
        });
        cfg.routes.get("/score/", ctx -> Responses.send(ctx, queries.score("")));
        cfg.routes.get("/reputation/", ctx -> Responses.send(ctx, queries.reputation("")));
        cfg.routes.get(RoutedAgentHistories.INTERNAL_PATH + "{agent_id}", this::internalHistory);
    }

    /** The signed score; paid when the operator set a score price ({@code docs/payments.md}). */
    private void score(Context ctx) {
        if (asOfRepeated(ctx)) {
            Responses.send(ctx, REPEATED_AS_OF);
            return;
        }
        String signature = ctx.header(X402.PAYMENT_SIGNATURE);
        Responses.send(
                ctx,
                metering.score(
                        queries.score(ctx.pathParam("agent_id"), ctx.queryParam("as_of")),
                        RequestCaller.of(ctx),
                        signature == null ? PaymentOffer.NONE : new PaymentOffer.Header(signature),
                        publicUrl + ctx.path()));
    }

    /** Two times to answer as of: which one was meant cannot be told (a repeated limit is refused alike). */
    private static final Answer REPEATED_AS_OF = Answer.error(ErrorDocument.invalidRequest(List.of(new FieldProblem(
            "as_of", "is sent more than once", "Send one as_of, an RFC 3339 time or epoch milliseconds."))));

    private static boolean asOfRepeated(Context ctx) {
        return ctx.queryParams("as_of").size() > 1;
    }

    /** Another instance asks the owner: answer from this store only, never forward again. */
    private void internalHistory(Context ctx) {
        var standing = histories.standingLocally(ctx.pathParam("agent_id"));
        if (standing.isPresent()) {
            Responses.json(ctx, standing.get().toJson().toString());
        } else {
            ctx.status(404);
        }
    }
}
