package dev.proofline.query.http;

import io.javalin.Javalin;
import java.util.List;

/**
 * The HTTP server every route group is mounted on (Javalin on Jetty), with the few rules that hold
 * for all of them: bodies up to twice the request limit reach the routes (so an oversized request
 * still gets Proofline's own 413 document, not Jetty's), and "not queryable yet" is 503
 * {@code not_ready} wherever it is thrown.
 */
public final class HttpServer implements AutoCloseable {
    private final Javalin javalin;

    private HttpServer(Javalin javalin) {
        this.javalin = javalin;
    }

    public static HttpServer start(String host, int port, int maxRequestBytes, List<RouteGroup> groups) {
        Javalin javalin = Javalin.create(cfg -> {
                    cfg.startup.showJavalinBanner = false;
                    cfg.http.maxRequestSize = 2L * maxRequestBytes;
                    Responses.mount(cfg);
                    groups.forEach(group -> group.mount(cfg));
                })
                .start(host, port);
        return new HttpServer(javalin);
    }

    public int port() {
        return javalin.port();
    }

    @Override
    public void close() {
        javalin.stop();
    }
}
