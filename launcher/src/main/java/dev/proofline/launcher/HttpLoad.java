package dev.proofline.launcher;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.function.IntFunction;

/**
 * A closed-loop HTTP/1.1 load generator in the manner of {@code wrk}: {@code clients} keep-alive
 * connections driven by one selector thread, each sending its next request as soon as the last is
 * answered. The bench runs it on the same two cores as the server, so its own cost is kept small:
 * the JDK's {@code HttpClient} with a thread per client took about a ninth of the CPU at 500
 * clients, which the server then did not have.
 *
 * <p>It reads just enough of each answer to find its end: the status line, {@code Content-Length}
 * or chunked framing, and {@code Connection: close} (then it reconnects). Anything it cannot read
 * counts as a failure and the connection is replaced.
 */
final class HttpLoad implements Closeable {
    /** What one run measured: each request's time to its whole answer, and how many were not 200. */
    record Result(long[] latenciesMillis, long failures, double seconds) {}

    /**
     * One request: a GET where {@code body} is null, else a POST of JSON.
     *
     * @param headers header lines, each ending in CRLF
     */
    record Call(String pathAndQuery, byte[] body, String headers) {
        static Call get(String pathAndQuery) {
            return new Call(pathAndQuery, null, "");
        }

        static Call get(String pathAndQuery, String bearerToken) {
            return new Call(pathAndQuery, null, authorization(bearerToken));
        }

        static Call post(String path, byte[] body, String bearerToken) {
            return new Call(path, body, authorization(bearerToken));
        }

        private static String authorization(String bearerToken) {
            return "Authorization: Bearer " + bearerToken + "\r\n";
        }
    }

    /** A bench that waits this long for any answer reports the stall instead of hanging. */
    private static final Duration STALLED_AFTER = Duration.ofSeconds(60);

    private final String host;
    private final int port;
    private final Selector selector;
    /** Connections kept open between runs, as a client's pool would, so no run pays for connecting. */
    private final Deque<Connection> idle = new ArrayDeque<>();

    HttpLoad(URI server) throws IOException {
        this.host = server.getHost();
        this.port = server.getPort();
        this.selector = Selector.open();
    }

    /**
     * Sends {@code count} requests over {@code clients} connections, the n-th being {@code call(n)},
     * and reports each one's latency; {@code tick} runs about once a second. The connections are
     * opened before the clock starts.
     */
    Result run(int clients, int count, IntFunction<Call> call, Runnable tick) throws IOException {
        int connections = Math.min(clients, count);
        while (idle.size() < connections) {
            idle.add(connect());
        }
        long[] latencies = new long[count];
        long failures = 0;
        int next = 0;
        int answered = 0;
        long start = System.nanoTime();
        long lastTick = start;
        for (int c = 0; c < connections; c++) {
            sendOnKept(idle.poll(), next, call.apply(next));
            next++;
        }
        long lastAnswer = start;
        while (answered < count) {
            selector.select(100);
            Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
            while (keys.hasNext()) {
                SelectionKey key = keys.next();
                keys.remove();
                Connection connection = (Connection) key.attachment();
                int status;
                try {
                    status = connection.onReady();
                } catch (IOException | RuntimeException e) {
                    status = -1;
                }
                if (status == 0) {
                    continue; // the answer is not all here yet
                }
                if (status < 0 && connection.nothingRead() && connection.requestsSent > 1) {
                    // The server closed a kept connection while it sat idle: send the request again on a new one.
                    connection.close();
                    connect().send(connection.n, connection.call);
                    continue;
                }
                latencies[connection.n] = (System.nanoTime() - connection.sentAt) / 1_000_000;
                answered++;
                lastAnswer = System.nanoTime();
                if (status != 200) {
                    failures++;
                }
                if (status < 0 || connection.mustClose) {
                    connection.close();
                    connection = connect();
                }
                if (next < count) {
                    sendOnKept(connection, next, call.apply(next));
                    next++;
                } else {
                    connection.key.interestOps(0);
                    idle.add(connection);
                }
            }
            long now = System.nanoTime();
            if (now - lastTick > 1_000_000_000L) {
                tick.run();
                lastTick = now;
            }
            if (now - lastAnswer > STALLED_AFTER.toNanos()) {
                throw new IOException("no answer in " + STALLED_AFTER.toSeconds() + " s, " + (next - answered)
                        + " requests waiting: the server has stalled");
            }
        }
        Arrays.sort(latencies);
        return new Result(latencies, failures, (System.nanoTime() - start) / 1e9);
    }

    /** Closes every connection: a selector does not close its channels, and idle ones cost the server. */
    @Override
    public void close() throws IOException {
        for (SelectionKey key : selector.keys()) {
            key.channel().close();
        }
        selector.close();
    }

    /** Sends on a kept connection, or on a new one if the server has closed it meanwhile. */
    private void sendOnKept(Connection connection, int n, Call call) throws IOException {
        try {
            connection.send(n, call);
        } catch (IOException closed) {
            connection.close();
            connect().send(n, call);
        }
    }

    private Connection connect() throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.connect(new InetSocketAddress(host, port));
            channel.configureBlocking(false);
            Connection connection = new Connection(channel);
            connection.key = channel.register(selector, 0, connection);
            return connection;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** One keep-alive connection: at most one request in flight. */
    private final class Connection {
        private final SocketChannel channel;
        private SelectionKey key;
        private ByteBuffer out;
        private ByteBuffer in = ByteBuffer.allocate(16 * 1024);
        private int n;
        private Call call;
        private long sentAt;
        private long requestsSent;
        private boolean mustClose;

        Connection(SocketChannel channel) {
            this.channel = channel;
        }

        void send(int n, Call call) throws IOException {
            this.n = n;
            this.call = call;
            this.mustClose = false;
            requestsSent++;
            in.clear();
            byte[] body = call.body();
            String head = (body == null ? "GET " : "POST ") + call.pathAndQuery() + " HTTP/1.1\r\nHost: " + host + ":"
                    + port + "\r\n" + call.headers()
                    + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n")
                    + "\r\n";
            byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
            int length = headBytes.length + (body == null ? 0 : body.length);
            out = ByteBuffer.allocate(length).put(headBytes);
            if (body != null) {
                out.put(body);
            }
            out.flip();
            sentAt = System.nanoTime();
            channel.write(out);
            key.interestOps(out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }

        /** The answer's status once it is all read, 0 while more is to come. */
        int onReady() throws IOException {
            if (out.hasRemaining()) {
                channel.write(out);
                if (out.hasRemaining()) {
                    return 0;
                }
                key.interestOps(SelectionKey.OP_READ);
            }
            if (!in.hasRemaining()) {
                in = ByteBuffer.allocate(in.capacity() * 2).put(in.flip());
            }
            if (channel.read(in) < 0) {
                throw new IOException("closed by the server");
            }
            return Answer.status(in.array(), in.position(), this);
        }

        boolean nothingRead() {
            return in.position() == 0;
        }

        void close() throws IOException {
            key.cancel();
            channel.close();
        }
    }

    /** Finds where an HTTP/1.1 answer ends in the bytes read so far. */
    private static final class Answer {
        static int status(byte[] bytes, int length, Connection connection) {
            int headEnd = indexOf(bytes, length, 0, "\r\n\r\n");
            if (headEnd < 0) {
                return 0;
            }
            String head = new String(bytes, 0, headEnd, StandardCharsets.ISO_8859_1);
            int status = Integer.parseInt(head.substring(9, 12));
            String lower = head.toLowerCase(java.util.Locale.ROOT);
            connection.mustClose = lower.contains("\r\nconnection: close");
            int bodyStart = headEnd + 4;
            if (status < 200 || status == 204 || status == 304) {
                return status; // never a body (RFC 9112, section 6.3); an interim 1xx is not expected here
            }
            int contentLength = lower.indexOf("\r\ncontent-length:");
            if (contentLength >= 0) {
                int valueEnd = lower.indexOf("\r\n", contentLength + 2);
                int declared =
                        Integer.parseInt(head.substring(contentLength + 17, valueEnd < 0 ? head.length() : valueEnd)
                                .trim());
                return length - bodyStart >= declared ? status : 0;
            }
            if (lower.contains("\r\ntransfer-encoding: chunked")) {
                return chunkedEnd(bytes, length, bodyStart) ? status : 0;
            }
            connection.mustClose = true; // the body runs to the end of the connection; not used by Proofline
            return status;
        }

        private static boolean chunkedEnd(byte[] bytes, int length, int at) {
            while (true) {
                int lineEnd = indexOf(bytes, length, at, "\r\n");
                if (lineEnd < 0) {
                    return false;
                }
                String size = new String(bytes, at, lineEnd - at, StandardCharsets.ISO_8859_1);
                int semicolon = size.indexOf(';');
                int chunk = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
                if (chunk == 0) {
                    return indexOf(bytes, length, lineEnd, "\r\n\r\n") >= 0; // the end of any trailers
                }
                at = lineEnd + 2 + chunk + 2;
                if (at > length) {
                    return false;
                }
            }
        }

        private static int indexOf(byte[] bytes, int length, int from, String what) {
            outer:
            for (int i = from; i <= length - what.length(); i++) {
                for (int j = 0; j < what.length(); j++) {
                    if (bytes[i + j] != what.charAt(j)) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }
    }
}
