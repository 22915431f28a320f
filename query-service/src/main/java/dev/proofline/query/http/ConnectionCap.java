package dev.proofline.query.http;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The most HTTP connections one instance holds open ({@code http.max.connections}). At the cap
 * Jetty stops accepting: new connections wait in the operating system's backlog until one closes,
 * and idle ones are closed sooner. Without it, connections cost the heap without bound: each
 * keep-alive connection that has served a few requests holds Jetty's header cache, and 2,000 held
 * about 200 MB with Jetty's default cache, so a few thousand idle clients could exhaust a 1 GiB node.
 */
final class ConnectionCap extends NetworkConnectionLimit {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionCap.class);

    /** How long an idle connection is kept while the cap is reached (the usual timeout is 30 s). */
    static final Duration IDLE_AT_THE_CAP = Duration.ofSeconds(5);

    private final int max;
    private final Server server;
    /** Each connector's own idle timeout, put back when the cap no longer holds. */
    private final Map<AbstractConnector, Long> usualIdleTimeouts = new ConcurrentHashMap<>();

    /** At most one log line a minute, however often the cap is reached and left. */
    private final OncePerMinute logGate = new OncePerMinute();

    private final AtomicLong reached = new AtomicLong();

    ConnectionCap(int max, Server server) {
        super(max, server);
        this.max = max;
        this.server = server;
        setEndPointIdleTimeout(IDLE_AT_THE_CAP.toMillis());
    }

    /**
     * Jetty shortens the idle timeout of the connections open when the cap is reached; those still
     * being accepted at that moment would keep the usual 30 s, so the connectors' own timeout is
     * shortened too until the cap no longer holds.
     */
    @Override
    protected void limit() {
        super.limit();
        for (Connector connector : server.getConnectors()) {
            if (connector instanceof AbstractConnector accepting) {
                usualIdleTimeouts.putIfAbsent(accepting, accepting.getIdleTimeout());
                accepting.setIdleTimeout(IDLE_AT_THE_CAP.toMillis());
            }
        }
        long times = reached.incrementAndGet();
        if (logGate.due()) {
            LOG.warn(
                    "HTTP connections reached http.max.connections ({}); new ones wait until one closes"
                            + " (reached {} times since start)",
                    max,
                    times);
        }
    }

    @Override
    protected void unlimit() {
        usualIdleTimeouts.forEach(AbstractConnector::setIdleTimeout);
        usualIdleTimeouts.clear();
        super.unlimit();
    }
}
