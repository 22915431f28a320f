package dev.proofline.query.http;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request's head (its request line and headers) must arrive within a deadline once its first
 * byte has, or the connection is closed.
 *
 * <p>Why: Jetty reads heads without a thread, but a connection whose head trickles in, a byte every
 * few seconds, is never idle long enough for the idle timeout, and is held open as long as the
 * sender likes. One client with enough such connections held every place under {@code
 * http.max.connections}, and nobody else was served. Nothing can be answered on a head not yet read
 * (there is no request to answer), so the connection is closed, as servers do when a client's
 * header timeout passes.
 *
 * <p>Open connections are looked at once a second: each one whose parser is inside a head has the
 * moment it was first seen inside that head (told apart from the next by the count of requests the
 * connection has begun), and is closed when that is older than the deadline. A connection
 * between requests (its parser at the start) or reading a body is not this class's business: the idle
 * timeout and {@link BodyDeadline} bound those. The parser's state is read from the sweeping thread
 * without a lock; a stale read only moves a decision to the next sweep.
 */
final class RequestHeadDeadline extends AbstractLifeCycle implements Connection.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(RequestHeadDeadline.class);
    /** Where a connection stood at the last sweep: how many heads it had begun, and since when it has been in this one. */
    private record Seen(long heads, long since) {
        static final Seen NOT_IN_A_HEAD = new Seen(-1, Long.MIN_VALUE);
    }

    private static final long LOG_EVERY_NANOS = Duration.ofMinutes(1).toNanos();

    private final Server server;
    private final Duration deadline;
    /** Each open HTTP/1 connection, and the head it was seen reading, if any. */
    private final Map<HttpConnection, Seen> open = new ConcurrentHashMap<>();

    private final AtomicLong closed = new AtomicLong();
    private long lastLogged = System.nanoTime() - LOG_EVERY_NANOS;
    private long closedAtLastLog;
    private ScheduledExecutorService sweeper;

    RequestHeadDeadline(Server server, Duration deadline) {
        this.server = server;
        this.deadline = deadline;
    }

    @Override
    protected void doStart() throws Exception {
        for (Connector connector : server.getConnectors()) {
            if (connector instanceof AbstractConnector network) {
                network.addBean(this); // as Jetty's own connection limit listens to its connectors
            }
        }
        sweeper = Executors.newSingleThreadScheduledExecutor(work -> {
            Thread thread = new Thread(work, "proofline-head-deadline");
            thread.setDaemon(true);
            return thread;
        });
        sweeper.scheduleWithFixedDelay(this::sweep, 1, 1, TimeUnit.SECONDS);
        super.doStart();
    }

    @Override
    protected void doStop() throws Exception {
        sweeper.shutdownNow();
        open.clear();
        super.doStop();
    }

    @Override
    public void onOpened(Connection connection) {
        if (connection instanceof HttpConnection http) {
            open.put(http, Seen.NOT_IN_A_HEAD);
        }
    }

    @Override
    public void onClosed(Connection connection) {
        open.remove(connection);
    }

    private void sweep() {
        try {
            long now = System.nanoTime();
            // A connection closed while its opening was still being told to listeners (one refused
            // by ConnectionsPerAddress) may be told closed before it is told open here: dropped now.
            open.keySet().removeIf(connection -> !connection.getEndPoint().isOpen());
            open.replaceAll((connection, seen) -> next(connection, seen, now));
            logNowAndThen(now);
        } catch (RuntimeException e) {
            // One failure must not end the sweeps: a scheduled task that throws is never run again.
            LOG.warn("the request-head deadline's sweep failed: {}", e.toString());
        }
    }

    private Seen next(HttpConnection connection, Seen seen, long now) {
        // Heads completed so far: a connection seen inside a head at two sweeps may be inside two
        // different quick ones (a proxy's busy keep-alive connection); only the same head is timed.
        // Read before the state, so a head that ends between the two reads restarts the clock.
        long heads = connection.getMessagesIn();
        if (!inAHead(connection.getParser().getState())) {
            return Seen.NOT_IN_A_HEAD;
        }
        if (seen.heads() != heads) {
            return new Seen(heads, now);
        }
        if (now - seen.since() > deadline.toNanos() && connection.getEndPoint().isOpen()) {
            connection.getEndPoint().close();
            closed.incrementAndGet();
        }
        return seen;
    }

    /** Past the first byte of a request and before its body: the request line or the headers. */
    static boolean inAHead(HttpParser.State state) {
        return state != HttpParser.State.START && state.ordinal() < HttpParser.State.CONTENT.ordinal();
    }

    /** One line a minute at most, saying how many connections were closed since the last. */
    private void logNowAndThen(long now) {
        long total = closed.get();
        if (total > closedAtLastLog && now - lastLogged >= LOG_EVERY_NANOS) {
            LOG.warn(
                    "closed {} HTTP connections whose request head did not arrive within {} s"
                            + " (http.head.timeout.seconds; {} since start)",
                    total - closedAtLastLog,
                    deadline.toSeconds(),
                    total);
            closedAtLastLog = total;
            lastLogged = now;
        }
    }
}
