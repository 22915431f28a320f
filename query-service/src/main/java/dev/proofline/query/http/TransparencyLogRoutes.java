package dev.proofline.query.http;

import dev.proofline.contract.ErrorDocument;
import dev.proofline.query.Answer;
import dev.proofline.query.tlog.PublishedLog;
import dev.proofline.tlog.TilePath;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
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
            Responses.send(ctx, Answer.notReady());
            return;
        }
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType("text/plain; charset=utf-8").result(checkpoint.get());
    }

    private void tile(Context ctx) {
        TilePath path = TilePath.parse("tile/" + ctx.pathParam("path"));
        Optional<byte[]> tile = path == null ? Optional.empty() : log.tile(path);
        if (tile.isEmpty()) {
            // Most missing tiles are only not yet published: no cache may keep the 404.
            ctx.header("Cache-Control", "no-cache");
            Responses.send(ctx, Answer.error(ErrorDocument.notFound()));
            return;
        }
        // A tile's path names its contents for ever, partial ones included (their width is in the path).
        ctx.header("Cache-Control", "public, max-age=31536000, immutable");
        ctx.contentType("application/octet-stream").result(tile.get());
    }
}
