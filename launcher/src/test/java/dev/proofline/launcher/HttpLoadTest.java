package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The bench's load generator against the JDK's own HTTP server: framing, failures, kept connections. */
class HttpLoadTest {
    private HttpServer server;
    private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
    private final AtomicInteger postsWithTheirBody = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/fixed", exchange -> answer(exchange, 200, 512, false));
        server.createContext("/chunked", exchange -> answer(exchange, 200, 0, false));
        server.createContext("/close", exchange -> answer(exchange, 200, 64, true));
        server.createContext("/missing", exchange -> answer(exchange, 404, 32, false));
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
        String[] paths = {"/fixed", "/chunked", "/close", "/missing"};
        try (HttpLoad load = new HttpLoad(base())) {
            HttpLoad.Result result = load.run(8, 400, n -> HttpLoad.Call.get(paths[n % 4]), () -> {});
            assertEquals(400, result.latenciesMillis().length);
            assertEquals(100, result.failures(), "one in four answers is a 404");
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
