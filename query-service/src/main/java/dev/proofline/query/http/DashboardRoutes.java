package dev.proofline.query.http;

import dev.proofline.contract.ErrorDocument;
import dev.proofline.query.Answer;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The dashboard at {@code /dashboard}: one static page, its script and style, all from this jar (no
 * CDN, no build step). The page reads {@code /agents}, {@code /reputation/{id}},
 * {@code /agents/{id}/receipts}, the agent-card's keys and the live feed, and checks every receipt's
 * signature itself with WebCrypto's Ed25519.
 */
public final class DashboardRoutes implements RouteGroup {
    private static final Map<String, String> TYPES = Map.of(
            "index.html", "text/html; charset=utf-8",
            "app.js", "text/javascript; charset=utf-8",
            "app.css", "text/css; charset=utf-8");

    /** Read once from the jar: the files never change while the server runs. */
    private final Map<String, byte[]> assets = new HashMap<>();

    public DashboardRoutes() {
        TYPES.keySet().forEach(name -> assets.put(name, read(name)));
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.routes.get("/dashboard", ctx -> asset(ctx, "index.html"));
        cfg.routes.get("/dashboard/", ctx -> asset(ctx, "index.html"));
        cfg.routes.get("/dashboard/{asset}", ctx -> asset(ctx, ctx.pathParam("asset")));
    }

    private void asset(Context ctx, String name) {
        byte[] content = assets.get(name);
        if (content == null) {
            Responses.send(ctx, Answer.error(ErrorDocument.notFound()));
            return;
        }
        ctx.contentType(TYPES.get(name)).header("Cache-Control", "no-cache").result(content);
    }

    private static byte[] read(String name) {
        try (InputStream in = DashboardRoutes.class.getResourceAsStream("/dashboard/" + name)) {
            if (in == null) {
                throw new IllegalStateException("dashboard/" + name + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
