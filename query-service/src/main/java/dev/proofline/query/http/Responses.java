package dev.proofline.query.http;

import dev.proofline.query.Answer;
import dev.proofline.reputation.query.NotQueryableException;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/** How an {@link Answer} goes out over HTTP, and the one place "not queryable yet" becomes 503. */
public final class Responses {
    private Responses() {}

    /** Sends it; an error that says how long to wait also sets {@code Retry-After}. */
    public static void send(Context ctx, Answer answer) {
        if (answer.retryAfterSeconds() != null) {
            ctx.header("Retry-After", Integer.toString(answer.retryAfterSeconds()));
        }
        answer.headers().forEach(ctx::header);
        ctx.status(answer.status()).contentType("application/json").result(answer.json());
    }

    public static void json(Context ctx, String json) {
        ctx.contentType("application/json").result(json);
    }

    /**
     * Whether Kafka Streams refused because it is between states (starting, rebalancing, stopping): a
     * store not queryable now, or the client's own "not running" check.
     */
    public static boolean isStreamsInTransition(Exception e) {
        if (e instanceof InvalidStateStoreException) {
            return true;
        }
        StackTraceElement[] at = e.getStackTrace();
        return e instanceof IllegalStateException
                && at.length > 0
                && at[0].getClassName().startsWith("org.apache.kafka.streams.");
    }

    /** Any route whose stores cannot answer now answers {@code not_ready}, never a bare 500. */
    public static void mount(JavalinConfig cfg) {
        cfg.routes.exception(NotQueryableException.class, (e, ctx) -> send(ctx, Answer.notReady()));
    }
}
