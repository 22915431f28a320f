package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One instance holds at most {@code http.max.connections} HTTP connections: a connection past the
 * cap is not served until another closes, and while the cap holds idle connections are closed
 * after 5 s, so the waiting one is served without anyone letting go. A cap of one is the hard
 * case: the only connection held is the one that reached the cap, still being accepted when it
 * did, which Jetty alone would leave on the usual 30 s.
 */
class HttpConnectionCapIT {
    private static final int CAP = 1;

    @TempDir
    static Path tmp;

    static TestKafka kafka;
    static ProoflineNode node;

    @BeforeAll
    static void start() throws Exception {
        kafka = TestKafka.start(tmp.resolve("broker"));
        node = TestNodes.start(kafka.bootstrapServers(), tmp, Map.of("http.max.connections", Integer.toString(CAP)));
    }

    @AfterAll
    static void stop() {
        node.close();
        kafka.close();
    }

    @Test
    void aConnectionPastTheCapWaitsUntilIdleOnesAreClosed() throws Exception {
        URI server = URI.create(node.httpUrl());
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < CAP; i++) {
                Socket socket = new Socket(server.getHost(), server.getPort());
                held.add(socket);
                socket.setSoTimeout(10_000);
                assertEquals(200, ask(socket), "within the cap, served at once");
            }
            try (Socket waiting = new Socket(server.getHost(), server.getPort())) {
                held.add(waiting);
                waiting.setSoTimeout(1_500);
                send(waiting);
                assertThrows(
                        SocketTimeoutException.class,
                        () -> waiting.getInputStream().read(),
                        "past the cap the request waits, unread");
                // Nobody lets go: at the cap idle connections are closed after 5 s instead of 30 s. This
                // client ignores the server's half-close, so Jetty cuts it off one timeout later: about
                // 10 s in all, against a minute with the usual timeout.
                long start = System.nanoTime();
                waiting.setSoTimeout(28_000);
                assertEquals(200, readStatus(waiting.getInputStream()));
                long waitedMillis = (System.nanoTime() - start) / 1_000_000;
                assertTrue(waitedMillis < 25_000, "served after " + waitedMillis + " ms");
                int closedByTheServer = 0;
                for (Socket idle : held.subList(0, CAP)) {
                    idle.setSoTimeout(1_000);
                    try {
                        if (idle.getInputStream().read() < 0) {
                            closedByTheServer++;
                        }
                    } catch (SocketTimeoutException stillOpen) {
                        // kept open: counted as not closed
                    }
                }
                assertEquals(CAP, closedByTheServer, "the idle connection was closed to make room");
            }
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    @Test
    void connectionsOpenedAllAtOnceAreAllServedSoonerThanTheUsualIdleTimeout() throws Exception {
        URI server = URI.create(node.httpUrl());
        List<Socket> sockets = new ArrayList<>();
        try {
            // Opened together, the cap is reached while connections are still being accepted.
            for (int i = 0; i < CAP + 2; i++) {
                Socket socket = new Socket(server.getHost(), server.getPort());
                sockets.add(socket);
                send(socket);
            }
            // Served one after another, each about 10 s after the last (5 s idle, then 5 s more for a
            // client that ignores the half-close); with the usual 30 s the second alone takes a minute.
            long start = System.nanoTime();
            for (Socket socket : sockets) {
                socket.setSoTimeout(28_000);
                assertEquals(200, readStatus(socket.getInputStream()));
            }
            long waitedMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(waitedMillis < 30_000, "all served after " + waitedMillis + " ms");
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    private static int ask(Socket socket) throws IOException {
        send(socket);
        return readStatus(socket.getInputStream());
    }

    private static void send(Socket socket) throws IOException {
        socket.getOutputStream()
                // A document the node answers without asking Kafka: the waits measured here are the cap's.
                .write("GET /.well-known/agent-card.json HTTP/1.1\r\nHost: proofline\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    /** Reads one answer (headers and a Content-Length body), leaving the connection open. */
    private static int readStatus(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed before an answer: " + head);
            }
            head.append((char) b);
        }
        String text = head.toString();
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(
                        line.substring("content-length:".length()).trim());
            }
        }
        in.readNBytes(length);
        return Integer.parseInt(text.substring(9, 12));
    }
}
