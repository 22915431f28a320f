package dev.proofline.query.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.config.JavalinConfig;
import jakarta.servlet.Filter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One client address holds at most {@code http.max.connections.per.address} connections: the next
 * is answered 503 {@code server_busy} and closed without its request being served, while other
 * addresses (127.0.0.2 is this machine too, another address) and trusted proxies are served.
 */
class ConnectionsPerAddressTest {
    private static final int CAP = 3;
    private static final byte[] GET =
            "GET /agents HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final AtomicInteger served = new AtomicInteger();
    private HttpServer server;

    private void start(String sharedAddress) {
        Filter everyoneIn = (request, response, chain) -> chain.doFilter(request, response);
        RouteGroup agents = new RouteGroup() {
            @Override
            public void mount(JavalinConfig cfg) {
                cfg.routes.get("/agents", ctx -> {
                    served.incrementAndGet();
                    ctx.result("[]");
                });
            }
        };
        server = HttpServer.start(
                "127.0.0.1",
                0,
                new HttpServer.Limits(
                        1 << 20, 100, CAP, sharedAddress::equals, 32, Duration.ofSeconds(20), Duration.ofSeconds(20)),
                everyoneIn,
                List.of(agents));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void oneConnectionPastTheCapIsRefusedAndOtherAddressesAreServed() throws Exception {
        start("none");
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < CAP; i++) {
                held.add(connect("127.0.0.1"));
                assertTrue(answer(held.get(i)).startsWith("HTTP/1.1 200 "), "within the cap");
            }
            int servedBefore = served.get();
            try (Socket past = connect("127.0.0.1")) {
                past.getOutputStream().write(GET);
                String refused = answer(past.getInputStream());
                assertTrue(refused.startsWith("HTTP/1.1 503 "), refused);
                assertTrue(refused.contains("\r\nRetry-After: 5\r\n"), refused);
                assertTrue(refused.contains("\"code\":\"server_busy\""), refused);
            }
            assertEquals(servedBefore, served.get(), "the refused connection's request was never served");
            try (Socket other = connect("127.0.0.2")) {
                assertTrue(answer(other).startsWith("HTTP/1.1 200 "), "another address is served");
            }
            // Room again once one of the address's connections closes.
            held.remove(0).close();
            assertTrue(servedAgainSoon(), "served once one closed");
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    @Test
    void aTrustedProxyIsNeverCapped() throws Exception {
        start("127.0.0.1");
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < CAP * 3; i++) {
                held.add(connect("127.0.0.1"));
                assertTrue(answer(held.get(i)).startsWith("HTTP/1.1 200 "), "connection " + i);
            }
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    private Socket connect(String from) throws IOException {
        Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), server.port(), InetAddress.getByName(from), 0);
        socket.setSoTimeout(10_000);
        return socket;
    }

    /** Sends GET /agents and reads its answer, leaving the connection open. */
    private static String answer(Socket socket) throws IOException {
        socket.getOutputStream().write(GET);
        return answer(socket.getInputStream());
    }

    /** One answer: its head, then as many bytes as its Content-Length says. */
    private static String answer(InputStream in) throws IOException {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        while (!read.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return read.toString(StandardCharsets.US_ASCII);
            }
            read.write(b);
        }
        String head = read.toString(StandardCharsets.US_ASCII);
        int at = head.toLowerCase(java.util.Locale.ROOT).indexOf("content-length: ");
        int length =
                Integer.parseInt(head.substring(at + 16, head.indexOf('\r', at)).trim());
        return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    /** The server counts a closed connection out a moment after the client closes it. */
    private boolean servedAgainSoon() throws Exception {
        for (int attempt = 0; attempt < 50; attempt++) {
            try (Socket again = connect("127.0.0.1")) {
                if (answer(again).startsWith("HTTP/1.1 200 ")) {
                    return true;
                }
            } catch (IOException refusedAndReset) {
                // still refused: the count had not caught up
            }
            Thread.sleep(100);
        }
        return false;
    }
}
