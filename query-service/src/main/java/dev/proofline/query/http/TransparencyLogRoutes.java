package dev.proofline.query.http;

import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.FieldProblem;
import dev.proofline.query.Answer;
import dev.proofline.query.tlog.PublishedLog;
import dev.proofline.tlog.TilePath;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.List;
import java.util.Optional;

/**
 * The transparency log over HTTP, as C2SP tlog-tiles lays it out under {@code /tlog}: the checkpoint
 * (mutable, so not cached), tiles and entry bundles (immutable, so cached for ever). Public: the log
 * holds digests of receipts, nothing else.
 */
public final class TransparencyLogRoutes implements RouteGroup {
    private final PublishedLog log;

    public TransparencyLogRoutes(PublishedLog log) {
        this.log = log;
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.routes.get("/tlog/checkpoint", this::checkpoint);
        cfg.routes.get("/tlog/tile/<path>", this::tile);
    }

    private void checkpoint(Context ctx) {
        Optional<String> checkpoint = log.checkpoint();
        if (checkpoint.isEmpty()) {
            Responses.send(ctx, Answer.error(ErrorDocument.noCheckpoint()));
            return;
        }
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType("text/plain; charset=utf-8").result(checkpoint.get());
    }

    private void tile(Context ctx) {
        TilePath path = TilePath.parse("tile/" + ctx.pathParam("path"));
        if (path == null) {
            // The URL itself is wrong (tlog-tiles names each tile one way only), so 400 as for any
            // malformed URL, not the 422 of a request's fields: asking again cannot help.
            ErrorDocument error = ErrorDocument.invalidRequest(List.of(new FieldProblem(
                    "path",
                    "is not a tile or entry bundle path of C2SP tlog-tiles",
                    "Ask for tile/L/N or tile/entries/N, N in three-digit groups (x001/234), with .p/W"
                            + " (W from 1 to 255) for a partial one.")));
            Responses.send(ctx, new Answer(400, error.toJson(400).toString(), null));
            return;
        }
        Optional<byte[]> tile;
        try {
            tile = log.awaitTile(path);
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt(); // the server is stopping: answer what is known
            tile = Optional.empty();
        }
        if (tile.isEmpty()) {
            // A tile not yet published: no cache may keep the 404.
            ctx.header("Cache-Control", "no-cache");
            Responses.send(ctx, Answer.error(ErrorDocument.tileNotPublished()));
            return;
        }
        // A tile's path names its contents for ever, partial ones included (their width is in the path).
        ctx.header("Cache-Control", "public, max-age=31536000, immutable");
        ctx.contentType("application/octet-stream").result(tile.get());
    }
}
