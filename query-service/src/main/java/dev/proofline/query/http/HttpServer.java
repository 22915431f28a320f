package dev.proofline.query.http;

import dev.proofline.contract.ErrorDocument;
import dev.proofline.query.Answer;
import dev.proofline.query.Failures;
import dev.proofline.query.access.AccessTable;
import io.javalin.Javalin;
import io.javalin.http.HttpResponseException;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import java.io.OutputStream;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Predicate;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server every route group is mounted on (Javalin on Jetty), with the rules that hold for
 * all of them: one size limit with one answer (a body over {@code max.request.bytes} is refused
 * with the {@code payload_too_large} document before it is read, whether it declares its length
 * or not), "not queryable yet" is 503 {@code not_ready} wherever it is thrown, and unknown paths,
 * wrong methods and requests Jetty cannot parse get the uniform error document too.
 */
public final class HttpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpServer.class);

    /** Oversized bodies up to this size are read and dropped so the client can read the 413. */
    private static final long DRAINED_AT_MOST = 16L * 1024 * 1024;

    private final Javalin javalin;
    private final BodyDeadline bodyDeadline;

    private HttpServer(Javalin javalin, BodyDeadline bodyDeadline) {
        this.javalin = javalin;
        this.bodyDeadline = bodyDeadline;
    }

    /**
     * Rows of Jetty's per-connection cache of repeated header lines (Jetty's default is 1,024, about
     * 100 KB a connection; 256 still holds the few lines a client repeats, at a quarter of that).
     */
    private static final int HEADER_CACHE_ROWS = 256;

    private static final int MIN_THREADS = 8;

    /**
     * What one instance's HTTP server takes at most.
     *
     * @param requestBytes a request body's size ({@code max.request.bytes})
     * @param connections connections held open ({@code http.max.connections})
     * @param connectionsPerAddress connections held open from one client address ({@code
     *     http.max.connections.per.address})
     * @param sharedAddresses addresses whose connections carry many clients (trusted proxies), never
     *     capped per address
     * @param threads threads serving requests ({@code http.max.threads}): a verification holds one
     *     until its receipt is committed, so this also caps the verifications in flight
     * @param headDeadline how long a request's head may take to arrive once it has begun ({@code
     *     http.head.timeout.seconds})
     * @param bodyDeadline how long a request's body may take to arrive whole ({@code
     *     http.body.timeout.seconds})
     */
    public record Limits(
            int requestBytes,
            int connections,
            int connectionsPerAddress,
            Predicate<String> sharedAddresses,
            int threads,
            Duration headDeadline,
            Duration bodyDeadline) {}

    public static HttpServer start(String host, int port, Limits limits, Filter access, List<RouteGroup> groups) {
        int maxRequestBytes = limits.requestBytes();
        BodyDeadline bodyDeadline = new BodyDeadline(limits.bodyDeadline());
        Javalin javalin = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            // Idle threads end after a minute; the name is the one Javalin gives its own pool.
            QueuedThreadPool threads = new QueuedThreadPool(limits.threads(), MIN_THREADS, 60_000);
            threads.setName("JettyServerThreadPool");
            cfg.jetty.threadPool = threads;
            // Bodies without a declared length are read up to twice the limit, so the verify
            // route still answers with the exact size; past that Javalin stops reading.
            cfg.http.maxRequestSize = 2L * maxRequestBytes;
            cfg.http.prefer405over404 = true;
            cfg.jetty.modifyServer(server -> {
                server.setErrorHandler(new JsonErrorPages(maxRequestBytes));
                server.addBean(new ConnectionCap(limits.connections(), server));
                server.addBean(
                        new ConnectionsPerAddress(limits.connectionsPerAddress(), server, limits.sharedAddresses()));
                server.addBean(new RequestHeadDeadline(server, limits.headDeadline()));
            });
            cfg.jetty.modifyHttpConfiguration(http -> http.setHeaderCacheSize(HEADER_CACHE_ROWS));
            // Before every servlet (Javalin's and MCP's), so no route runs before access is decided.
            cfg.jetty.modifyServletContextHandler(context -> {
                FilterHolder deadline = new FilterHolder(bodyDeadline);
                deadline.setAsyncSupported(true);
                context.addFilter(deadline, "/*", EnumSet.of(DispatcherType.REQUEST));
                FilterHolder head = new FilterHolder(new HeadAsGet());
                head.setAsyncSupported(true);
                context.addFilter(head, "/*", EnumSet.of(DispatcherType.REQUEST));
                FilterHolder holder = new FilterHolder(access);
                holder.setAsyncSupported(true); // the live feed and MCP streams are asynchronous
                context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
                FilterHolder codings = new FilterHolder(new ContentCodings());
                codings.setAsyncSupported(true);
                context.addFilter(codings, "/*", EnumSet.of(DispatcherType.REQUEST));
                FilterHolder feedAccept = new FilterHolder(new EventStreamAccept());
                feedAccept.setAsyncSupported(true);
                context.addFilter(feedAccept, "/*", EnumSet.of(DispatcherType.REQUEST));
            });
            Responses.mount(cfg);
            cfg.routes.before(ctx -> {
                if (!QueryText.decodes(ctx.queryString())) {
                    // 400, as for a path that cannot be decoded: the URL, not a field of the request.
                    Responses.send(
                            ctx,
                            new Answer(400, QueryText.UNDECODABLE.toJson(400).toString(), null));
                    ctx.skipRemainingHandlers();
                    return;
                }
                if (ctx.queryString() != null && !QueryText.charsetIsUtf8(ctx.header("Content-Type"))) {
                    Responses.send(
                            ctx,
                            new Answer(
                                    400, QueryText.FOREIGN_CHARSET.toJson(400).toString(), null));
                    ctx.skipRemainingHandlers();
                    return;
                }
                long declared = ctx.contentLength();
                if (declared > maxRequestBytes) {
                    drainBeforeRefusing(ctx, declared);
                    Responses.send(
                            ctx,
                            Answer.error(ErrorDocument.payloadTooLarge(
                                    (int) Math.min(declared, Integer.MAX_VALUE), maxRequestBytes)));
                    ctx.skipRemainingHandlers();
                }
            });
            cfg.routes.exception(HttpResponseException.class, (e, ctx) -> {
                long declared = ctx.contentLength();
                ErrorDocument error =
                        e.getStatus() == 413 && declared > maxRequestBytes && declared <= Integer.MAX_VALUE
                                ? ErrorDocument.payloadTooLarge((int) declared, maxRequestBytes)
                                : JsonErrorPages.forStatus(e.getStatus(), maxRequestBytes);
                if (e.getStatus() == 405) {
                    // RFC 9110: a 405 names the methods the path does take; Javalin found them.
                    e.getDetails().values().stream().findFirst().ifPresent(methods -> ctx.header("Allow", methods));
                }
                Responses.send(
                        ctx,
                        new Answer(e.getStatus(), error.toJson(e.getStatus()).toString(), error.retryAfterSeconds()));
            });
            // Whatever a route did not expect still gets the uniform error document, never a bare
            // "Server Error": a store between owners mid-rebalance is not_ready, anything else a bug.
            cfg.routes.exception(Exception.class, (e, ctx) -> {
                if (Responses.isStreamsInTransition(e)) {
                    Responses.send(ctx, Answer.notReady());
                    return;
                }
                HttpException unreadable = unreadableBody(e);
                if (unreadable != null) {
                    // The caller's bytes, not a bug (a broken chunked body, a connection cut short): no log line.
                    int status = unreadable.getCode() >= 400 && unreadable.getCode() < 500 ? unreadable.getCode() : 400;
                    ErrorDocument error = ErrorDocument.malformedHttpRequest();
                    Responses.send(ctx, new Answer(status, error.toJson(status).toString(), null));
                    return;
                }
                LOG.warn("{} {} failed: {}", ctx.method(), route(ctx), Failures.where(e));
                Responses.send(ctx, Answer.error(ErrorDocument.internalError()));
            });
            // A body that stops arriving (shorter than its Content-Length, a chunk cut short): Javalin
            // takes Jetty's idle timeout itself and answers 408 with nothing in it.
            cfg.routes.error(408, ctx -> {
                if (ctx.result() == null) {
                    ErrorDocument error = ErrorDocument.bodyNotReceived();
                    Responses.send(ctx, new Answer(408, error.toJson(408).toString(), null));
                }
            });
            cfg.routes.error(404, ctx -> {
                if (ctx.result() == null) { // no route chose a body: the path is unknown
                    Responses.send(ctx, Answer.error(ErrorDocument.notFound()));
                }
            });
            groups.forEach(group -> group.mount(cfg));
        });
        try {
            requireAccessRules(javalin);
            javalin.start(host, port);
        } catch (RuntimeException e) {
            bodyDeadline.close();
            throw e;
        }
        return new HttpServer(javalin, bodyDeadline);
    }

    /**
     * Reads and drops a moderately oversized body before the 413, since a client still sending would
     * otherwise meet a closed connection instead of the answer. Not when the client waits for
     * {@code 100 Continue} before sending it: reading would invite the upload that is refused. A body
     * that stops arriving still gets the 413, which may reach the client.
     */
    private static void drainBeforeRefusing(io.javalin.http.Context ctx, long declared) {
        if (declared > DRAINED_AT_MOST || "100-continue".equalsIgnoreCase(ctx.header("Expect"))) {
            ctx.header("Connection", "close");
            return;
        }
        try {
            ctx.req().getInputStream().transferTo(OutputStream.nullOutputStream());
        } catch (java.io.IOException | RuntimeException stopped) {
            ctx.header("Connection", "close");
        }
    }

    /** Jetty's own "this request cannot be read" (a body that breaks HTTP framing), wherever it is in the causes. */
    private static HttpException unreadableBody(Throwable e) {
        Throwable cause = e;
        for (int depth = 0; cause != null && depth < 8; depth++, cause = cause.getCause()) {
            if (cause instanceof HttpException http) {
                return http;
            }
        }
        return null;
    }

    /** A route the access table does not name would be open by accident: refuse to start instead. */
    private static void requireAccessRules(Javalin javalin) {
        List<String> uncovered = javalin.unsafe.internalRouter.allHttpHandlers().stream()
                .map(parsed -> parsed.endpoint)
                .filter(e -> e.method.isHttpMethod())
                .filter(e -> !AccessTable.covers(e.method.name(), e.path))
                .map(e -> e.method.name() + " " + e.path)
                .toList();
        if (!uncovered.isEmpty()) {
            throw new IllegalStateException("routes without an access rule: " + uncovered);
        }
    }

    public int port() {
        return javalin.port();
    }

    @Override
    public void close() {
        javalin.stop();
        bodyDeadline.close();
    }

    /**
     * The route a failed request matched, as declared ({@code /agents/{agent_id}/receipts}): the
     * path as sent is the caller's text, and a caller's text never reaches the log.
     */
    private static String route(io.javalin.http.Context ctx) {
        try {
            io.javalin.router.Endpoint endpoint = ctx.endpoints().lastHttpEndpoint();
            return endpoint == null ? "(before any route)" : endpoint.path;
        } catch (RuntimeException e) {
            return "(before any route)";
        }
    }
}
