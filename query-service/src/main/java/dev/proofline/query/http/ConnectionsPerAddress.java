package dev.proofline.query.http;

import dev.proofline.contract.ErrorDocument;
import dev.proofline.query.access.ClientAddresses;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At most {@code http.max.connections.per.address} connections from one client address. Without it
 * one client holding {@code http.max.connections} idle connections (ConnectionCap) kept every other
 * client waiting in the backlog. A connection past the cap is answered 503 {@code server_busy} at
 * once, before its request is read, and closed, so nothing it sends is ever served.
 *
 * <p>Addresses whose connections carry many clients (trusted proxies, {@code
 * http.trusted.proxies}) are never capped here; behind a proxy the proxy is where to cap a client.
 */
final class ConnectionsPerAddress extends AbstractLifeCycle implements Connection.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionsPerAddress.class);
    private static final byte[] BUSY = busyAnswer();
    /** A request's head, and then some: read and dropped before the refusal is sent. */
    private static final int DRAINED_AT_MOST = 8 * 1024;

    private final int max;
    private final Server server;
    private final Predicate<String> shared;
    /** Open connections per capped address; an address leaves the map with its last connection. */
    private final Map<InetAddress, Integer> open = new ConcurrentHashMap<>();
    /** The address each open connection was counted under. */
    private final Map<Connection, InetAddress> counted = new ConcurrentHashMap<>();

    private final AtomicLong refused = new AtomicLong();
    private final OncePerMinute logGate = new OncePerMinute();

    /**
     * @param shared addresses (as text) never capped: trusted proxies
     */
    ConnectionsPerAddress(int max, Server server, Predicate<String> shared) {
        this.max = max;
        this.server = server;
        this.shared = shared;
    }

    @Override
    protected void doStart() throws Exception {
        // Every connection a connector opens is told to its connector's listeners.
        for (Connector connector : server.getConnectors()) {
            connector.addEventListener(this);
        }
        super.doStart();
    }

    @Override
    protected void doStop() throws Exception {
        for (Connector connector : server.getConnectors()) {
            connector.removeEventListener(this);
        }
        super.doStop();
    }

    @Override
    public void onOpened(Connection connection) {
        InetAddress address = cappedAddress(connection);
        if (address == null) {
            return;
        }
        counted.put(connection, address);
        int now = open.merge(address, 1, Integer::sum);
        if (now > max) {
            refuse(connection.getEndPoint(), address);
        }
    }

    @Override
    public void onClosed(Connection connection) {
        // Taken from when it opened: a closed connection's endpoint no longer knows its remote address.
        InetAddress address = counted.remove(connection);
        if (address != null) {
            open.computeIfPresent(address, (a, count) -> count == 1 ? null : count - 1);
        }
    }

    private InetAddress cappedAddress(Connection connection) {
        if (connection.getEndPoint().getRemoteSocketAddress() instanceof InetSocketAddress remote
                && remote.getAddress() != null
                && !shared.test(remote.getAddress().getHostAddress())) {
            return ClientAddresses.client(remote.getAddress());
        }
        return null;
    }

    /**
     * Called as the connection opens, before Jetty asks to read it, so the request is never read.
     * What the client sent already is read and dropped first: closing a socket over unread bytes
     * sends a reset, which can destroy the answer before the client reads it. Then the answer (a
     * fresh socket's buffer takes it whole), the end of output, and the close; onClosed counts the
     * connection out like any other.
     */
    private void refuse(EndPoint endPoint, InetAddress address) {
        try {
            ByteBuffer sink = BufferUtil.allocate(DRAINED_AT_MOST);
            endPoint.fill(sink);
            if (endPoint.flush(ByteBuffer.wrap(BUSY))) {
                endPoint.shutdownOutput();
            }
        } catch (IOException gone) {
            // The client left already: closing is all there is to do.
        }
        endPoint.close();
        long times = refused.incrementAndGet();
        if (logGate.due()) {
            LOG.warn(
                    "{} already holds http.max.connections.per.address ({}) connections; more are refused"
                            + " with 503 (refused {} times since start)",
                    address.getHostAddress() + (address.getAddress().length == 16 ? "/64" : ""),
                    max,
                    times);
        }
    }

    private static byte[] busyAnswer() {
        ErrorDocument busy = ErrorDocument.addressBusy();
        byte[] body = busy.toJson(503).toString().getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 503 Service Unavailable\r\n"
                + "Content-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n"
                + "Retry-After: " + busy.retryAfterSeconds() + "\r\n"
                + "Cache-Control: no-store\r\n"
                + "Connection: close\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] answer = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, answer, 0, headBytes.length);
        System.arraycopy(body, 0, answer, headBytes.length, body.length);
        return answer;
    }
}
