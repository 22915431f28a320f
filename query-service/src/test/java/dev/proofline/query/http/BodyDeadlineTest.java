package dev.proofline.query.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.StrictJson;
import io.javalin.config.JavalinConfig;
import jakarta.servlet.Filter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A body that trickles in, a byte at a time and never idle for long, is cut off at the body deadline
 * with the 408 document; a body that arrives in time, and the wait after it, are not.
 */
class BodyDeadlineTest {
    private static final Duration DEADLINE = Duration.ofSeconds(2);
    private static final int BODY_BYTES = 40;

    private HttpServer server;

    @BeforeEach
    void start() {
        Filter everyoneIn = (request, response, chain) -> chain.doFilter(request, response);
        RouteGroup echo = new RouteGroup() {
            @Override
            public void mount(JavalinConfig cfg) {
                // The verify route's shape: read the body, then wait (for a receipt) longer than the deadline.
                cfg.routes.post("/verify/schema", ctx -> {
                    byte[] body = ctx.bodyAsBytes();
                    Thread.sleep(DEADLINE.toMillis() + 1_000);
                    ctx.result("{\"bytes\":" + body.length + "}");
                });
            }
        };
        server = HttpServer.start(
                "127.0.0.1",
                0,
                new HttpServer.Limits(1 << 20, 100, 100, address -> false, 32, Duration.ofSeconds(20), DEADLINE),
                everyoneIn,
                List.of(echo));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aTricklingBodyIsAnswered408AtTheDeadline() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(200);
            OutputStream out = socket.getOutputStream();
            out.write(head(BODY_BYTES));
            out.flush();
            // A byte every 250 ms: never idle near the 30 s idle timeout, done only after 10 s.
            String answer = "";
            for (int i = 0; i < BODY_BYTES && answer.isEmpty(); i++) {
                out.write('x');
                out.flush();
                answer = readSome(socket.getInputStream());
                if (answer.isEmpty()) {
                    Thread.sleep(50);
                }
            }
            assertTrue(answer.startsWith("HTTP/1.1 408 "), "cut off before the whole body was sent: " + answer);
            JsonNode error = StrictJson.parse(answer.substring(answer.indexOf("\r\n\r\n") + 4));
            assertEquals("invalid_request", error.get("code").asString());
            assertEquals("body", error.get("fields").get(0).get("field").asString(), error.toString());
        }
    }

    @Test
    void aBodySentInTimeIsAnsweredThoughTheAnswerTakesLongerThanTheDeadline() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(head(BODY_BYTES));
            out.write("x".repeat(BODY_BYTES).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertEquals("HTTP/1.1 200", answer);
        }
    }

    private static byte[] head(int length) {
        return ("POST /verify/schema HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + length + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** What the server has sent within the socket's timeout, read to its end if it started answering. */
    private static String readSome(InputStream in) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] chunk = new byte[4096];
        for (int quietAfterStarting = 0; quietAfterStarting < 25; ) {
            int n;
            try {
                n = in.read(chunk);
            } catch (SocketTimeoutException quiet) {
                if (got.size() == 0) {
                    return "";
                }
                quietAfterStarting++;
                continue; // answering: wait for the rest (the server closes the connection)
            }
            if (n < 0) {
                return got.toString(StandardCharsets.UTF_8);
            }
            got.write(chunk, 0, n);
        }
        return got.toString(StandardCharsets.UTF_8);
    }
}
