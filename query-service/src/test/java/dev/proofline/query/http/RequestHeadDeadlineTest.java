package dev.proofline.query.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.config.JavalinConfig;
import jakarta.servlet.Filter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.eclipse.jetty.http.HttpParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A head that trickles in, never idle for long, has its connection closed at the head deadline; a
 * keep-alive connection that waits between two requests longer than the deadline is not.
 */
class RequestHeadDeadlineTest {
    private static final Duration DEADLINE = Duration.ofSeconds(2);

    private HttpServer server;

    @BeforeEach
    void start() {
        Filter everyoneIn = (request, response, chain) -> chain.doFilter(request, response);
        RouteGroup agents = new RouteGroup() {
            @Override
            public void mount(JavalinConfig cfg) {
                cfg.routes.get("/agents", ctx -> ctx.result("[]"));
            }
        };
        server = HttpServer.start(
                "127.0.0.1",
                0,
                new HttpServer.Limits(1 << 20, 100, 100, address -> false, 32, DEADLINE, Duration.ofSeconds(30)),
                everyoneIn,
                List.of(agents));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aTricklingHeadHasItsConnectionClosed() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(250);
            OutputStream out = socket.getOutputStream();
            out.write("GET /agents HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // A byte every 250 ms for up to 15 s: never idle, never done.
            boolean closed = false;
            for (int i = 0; i < 60 && !closed; i++) {
                try {
                    out.write('x');
                    out.flush();
                    closed = closedByServer(socket.getInputStream());
                } catch (IOException reset) {
                    closed = true;
                }
            }
            assertTrue(closed, "the connection was still open after 15 s of trickled headers");
        }
    }

    @Test
    void aKeepAliveConnectionWaitingBetweenRequestsIsLeftOpen() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            byte[] request = "GET /agents HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            out.write(request);
            out.flush();
            assertTrue(readAnswer(in).startsWith("HTTP/1.1 200"));
            Thread.sleep(DEADLINE.toMillis() * 2);
            out.write(request);
            out.flush();
            assertTrue(readAnswer(in).startsWith("HTTP/1.1 200"), "served again on the same connection");
        }
    }

    @Test
    void onlyTheRequestLineAndHeadersCount() {
        assertEquals(false, RequestHeadDeadline.inAHead(HttpParser.State.START));
        assertEquals(true, RequestHeadDeadline.inAHead(HttpParser.State.METHOD));
        assertEquals(true, RequestHeadDeadline.inAHead(HttpParser.State.URI));
        assertEquals(true, RequestHeadDeadline.inAHead(HttpParser.State.HEADER));
        assertEquals(false, RequestHeadDeadline.inAHead(HttpParser.State.CONTENT));
        assertEquals(false, RequestHeadDeadline.inAHead(HttpParser.State.CHUNKED_CONTENT));
        assertEquals(false, RequestHeadDeadline.inAHead(HttpParser.State.END));
        assertEquals(false, RequestHeadDeadline.inAHead(HttpParser.State.CLOSED));
    }

    /** Whether the server closed the connection (end of stream) within the socket's timeout. */
    private static boolean closedByServer(InputStream in) throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException open) {
            return false;
        }
    }

    /** One short answer: its head and the two-byte body. */
    private static String readAnswer(InputStream in) throws IOException {
        StringBuilder text = new StringBuilder();
        while (!text.toString().endsWith("\r\n\r\n[]")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            text.append((char) b);
        }
        return text.toString();
    }
}
