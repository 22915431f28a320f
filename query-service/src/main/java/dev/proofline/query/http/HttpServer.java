package dev.proofline.query.http;

import dev.proofline.contract.ErrorDocument;
import dev.proofline.query.Answer;
import io.javalin.Javalin;
import io.javalin.http.HttpResponseException;
import java.util.List;

/**
 * The HTTP server every route group is mounted on (Javalin on Jetty), with the rules that hold for
 * all of them: one size limit with one answer (a body over {@code max.request.bytes} is refused
 * with the {@code payload_too_large} document before it is read, whether it declares its length
 * or not), "not queryable yet" is 503 {@code not_ready} wherever it is thrown, and unknown paths,
 * wrong methods and requests Jetty cannot parse get the uniform error document too.
 */
public final class HttpServer implements AutoCloseable {
    private final Javalin javalin;

    private HttpServer(Javalin javalin) {
        this.javalin = javalin;
    }

    public static HttpServer start(String host, int port, int maxRequestBytes, List<RouteGroup> groups) {
        Javalin javalin = Javalin.create(cfg -> {
                    cfg.startup.showJavalinBanner = false;
                    cfg.http.maxRequestSize = maxRequestBytes;
                    cfg.http.prefer405over404 = true;
                    cfg.jetty.modifyServer(server -> server.setErrorHandler(new JsonErrorPages(maxRequestBytes)));
                    Responses.mount(cfg);
                    cfg.routes.before(ctx -> {
                        // Refuse a declared oversize body before reading a byte of it.
                        long declared = ctx.contentLength();
                        if (declared > maxRequestBytes) {
                            throw new HttpResponseException(413, "too large");
                        }
                    });
                    cfg.routes.exception(HttpResponseException.class, (e, ctx) -> {
                        long declared = ctx.contentLength();
                        ErrorDocument error =
                                e.getStatus() == 413 && declared > maxRequestBytes && declared <= Integer.MAX_VALUE
                                        ? ErrorDocument.payloadTooLarge((int) declared, maxRequestBytes)
                                        : JsonErrorPages.forStatus(e.getStatus(), maxRequestBytes);
                        Responses.send(ctx, Answer.error(error));
                    });
                    cfg.routes.error(404, ctx -> {
                        if (ctx.result() == null) { // no route chose a body: the path is unknown
                            Responses.send(ctx, Answer.error(ErrorDocument.notFound()));
                        }
                    });
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
