package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The bench's load generator against the JDK's own HTTP server: framing, failures, kept connections. */
class HttpLoadTest {
    private HttpServer server;
    private ExecutorService executor;
    private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
    private final AtomicInteger postsWithTheirBody = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        executor = Executors.newFixedThreadPool(4);
        server.setExecutor(executor);
        server.createContext("/fixed", exchange -> answer(exchange, 200, 512, false));
        server.createContext("/chunked", exchange -> answer(exchange, 200, 0, false));
        server.createContext("/close", exchange -> answer(exchange, 200, 64, true));
        server.createContext("/missing", exchange -> answer(exchange, 404, 32, false));
        server.createContext("/nothing", exchange -> {
            clientPorts.add(exchange.getRemoteAddress().getPort());
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.createContext("/post", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            if ("POST".equals(exchange.getRequestMethod())
                    && body.length == 3000
                    && body[2999] == 'z'
                    && "Bearer t0ken".equals(auth)) {
                postsWithTheirBody.incrementAndGet();
            }
            answer(exchange, 200, 100, false);
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void answer(HttpExchange exchange, int status, int length, boolean close) throws IOException {
        clientPorts.add(exchange.getRemoteAddress().getPort());
        exchange.getRequestBody().readAllBytes();
        if (close) {
            exchange.getResponseHeaders().add("Connection", "close");
        }
        byte[] body = new byte[length == 0 ? 20_000 : length]; // chunked: longer than one chunk
        Arrays.fill(body, (byte) 'x');
        exchange.sendResponseHeaders(status, length == 0 ? 0 : length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Test
    void countsEveryAnswerWhateverItsFramingAndTheOnesThatAreNot200() throws IOException {
        String[] paths = {"/fixed", "/chunked", "/close", "/missing", "/nothing"};
        try (HttpLoad load = new HttpLoad(base())) {
            HttpLoad.Result result = load.run(8, 500, n -> HttpLoad.Call.get(paths[n % 5]), () -> {});
            assertEquals(500, result.latenciesMillis().length);
            assertEquals(200, result.failures(), "one in five answers is a 404, one a 204");
            assertTrue(result.latenciesMillis()[0] >= 0);
        }
    }

    @Test
    void postsTheirBodiesAndHeadersAndKeepTheirConnectionsFromRunToRun() throws IOException {
        byte[] body = new byte[3000];
        Arrays.fill(body, (byte) 'a');
        body[2999] = 'z';
        try (HttpLoad load = new HttpLoad(base())) {
            HttpLoad.Result first = load.run(5, 100, n -> HttpLoad.Call.post("/post", body, "t0ken"), () -> {});
            HttpLoad.Result second = load.run(5, 100, n -> HttpLoad.Call.post("/post", body, "t0ken"), () -> {});
            assertEquals(0, first.failures() + second.failures());
        }
        assertEquals(200, postsWithTheirBody.get());
        assertEquals(5, clientPorts.size(), "five connections, kept for both runs");
    }

    @Test
    void replacesAConnectionTheServerClosed() throws IOException {
        try (HttpLoad load = new HttpLoad(base())) {
            HttpLoad.Result result = load.run(2, 50, n -> HttpLoad.Call.get("/close"), () -> {});
            assertEquals(0, result.failures());
        }
        assertEquals(50, clientPorts.size(), "a new connection for each request after a Connection: close");
    }

    @Test
    void sendsAgainOnANewConnectionWhenTheServerClosedAKeptOneBetweenRuns() throws Exception {
        // A server that answers one request per connection and then closes it without saying so,
        // as Jetty does with a connection idle past its timeout.
        AtomicInteger accepted = new AtomicInteger();
        try (ServerSocket oneShot = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread serving = new Thread(() -> {
                while (!oneShot.isClosed()) {
                    try (Socket socket = oneShot.accept()) {
                        accepted.incrementAndGet();
                        InputStream in = socket.getInputStream();
                        StringBuilder head = new StringBuilder();
                        while (!head.toString().endsWith("\r\n\r\n")) {
                            int b = in.read();
                            if (b < 0) {
                                break;
                            }
                            head.append((char) b);
                        }
                        socket.getOutputStream()
                                .write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
                                        .getBytes(StandardCharsets.US_ASCII));
                    } catch (IOException e) {
                        // closed at the end of the test
                    }
                }
            });
            serving.setDaemon(true);
            serving.start();
            URI server = URI.create("http://127.0.0.1:" + oneShot.getLocalPort());
            try (HttpLoad load = new HttpLoad(server)) {
                assertEquals(
                        0, load.run(1, 1, n -> HttpLoad.Call.get("/"), () -> {}).failures());
                HttpLoad.Result second = load.run(1, 3, n -> HttpLoad.Call.get("/"), () -> {});
                assertEquals(0, second.failures(), "each closed connection replaced, its request sent again");
                assertEquals(3, second.latenciesMillis().length);
            }
        }
        assertEquals(4, accepted.get(), "one connection per answer");
    }

    @Test
    void readsAnAnswerThatArrivesInPieces() throws IOException {
        String big = "y".repeat(200_000);
        server.createContext("/big", exchange -> {
            clientPorts.add(exchange.getRemoteAddress().getPort());
            byte[] bytes = big.getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        try (HttpLoad load = new HttpLoad(base())) {
            HttpLoad.Result result = load.run(3, 30, n -> HttpLoad.Call.get("/big"), () -> {});
            assertEquals(0, result.failures());
        }
    }
}
