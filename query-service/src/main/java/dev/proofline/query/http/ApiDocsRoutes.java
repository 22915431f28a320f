package dev.proofline.query.http;

import dev.proofline.contract.ErrorDocument;
import dev.proofline.query.Answer;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;

/**
 * {@code /docs}: Swagger UI over {@code /openapi.json}, where "try it out" calls this deployment.
 * The page and its initializer are ours; Swagger UI itself comes from its WebJar in this jar, so the
 * documentation works offline and no third-party host sees who reads it.
 */
public final class ApiDocsRoutes implements RouteGroup {
    private static final String WEBJAR = "/META-INF/resources/webjars/swagger-ui/";

    private record Asset(String type, byte[] content) {}

    /** Read once: the files never change while the server runs. */
    private final Map<String, Asset> assets;

    public ApiDocsRoutes() {
        String swaggerUi = WEBJAR + swaggerUiVersion() + "/";
        assets = Map.of(
                "index.html",
                new Asset("text/html; charset=utf-8", read("/docs/index.html")),
                "docs.js",
                new Asset("text/javascript; charset=utf-8", read("/docs/docs.js")),
                "swagger-ui.css",
                new Asset("text/css; charset=utf-8", read(swaggerUi + "swagger-ui.css")),
                "favicon-32x32.png",
                new Asset("image/png", read(swaggerUi + "favicon-32x32.png")),
                "swagger-ui-bundle.js",
                new Asset("text/javascript; charset=utf-8", read(swaggerUi + "swagger-ui-bundle.js")));
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.routes.get("/docs", ctx -> asset(ctx, "index.html"));
        cfg.routes.get("/docs/", ctx -> asset(ctx, "index.html"));
        cfg.routes.get("/docs/{asset}", ctx -> asset(ctx, ctx.pathParam("asset")));
    }

    private void asset(Context ctx, String name) {
        Asset asset = assets.get(name);
        if (asset == null) {
            Responses.send(ctx, Answer.error(ErrorDocument.notFound()));
            return;
        }
        ctx.contentType(asset.type()).header("Cache-Control", "no-cache").result(asset.content());
    }

    /** The WebJar's own version, so upgrading it is a change to the pom alone. */
    private static String swaggerUiVersion() {
        Properties properties = new Properties();
        try (InputStream in = stream("/META-INF/maven/org.webjars/swagger-ui/pom.properties")) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version");
    }

    private static byte[] read(String path) {
        try (InputStream in = stream(path)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream stream(String path) {
        InputStream in = ApiDocsRoutes.class.getResourceAsStream(path);
        if (in == null) {
            throw new IllegalStateException(path + " is missing from the class path");
        }
        return in;
    }
}
