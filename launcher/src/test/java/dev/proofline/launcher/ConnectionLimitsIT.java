package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.StrictJson;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Long-lived connections are capped per instance: one live-feed client or one MCP stream too many
 * gets 503 {@code server_busy} with the uniform document and Retry-After, and the rest of the API
 * keeps answering.
 */
class ConnectionLimitsIT {
    @TempDir
    static Path tmp;

    static TestKafka kafka;
    static ProoflineNode node;

    @BeforeAll
    static void start() throws Exception {
        kafka = TestKafka.start(tmp.resolve("broker"));
        node = TestNodes.start(
                kafka.bootstrapServers(), tmp, Map.of("http.feed.max.clients", "2", "mcp.max.connections", "1"));
    }

    @AfterAll
    static void stop() {
        node.close();
        kafka.close();
    }

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static void assertBusy(HttpResponse<String> answer) {
        assertEquals(503, answer.statusCode(), answer.body());
        JsonNode error = StrictJson.parse(answer.body());
        assertEquals("server_busy", error.get("code").asString());
        assertEquals("5", answer.headers().firstValue("Retry-After").orElse(""));
    }

    @Test
    void unknownPathsWrongMethodsOversizeBodiesAndBrokenUrlsGetTheUniformDocument() throws Exception {
        String base = node.httpUrl();
        HttpResponse<String> notFound = http.send(
                HttpRequest.newBuilder(URI.create(base + "/no/such/route")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, notFound.statusCode());
        assertEquals("not_found", StrictJson.parse(notFound.body()).get("code").asString());
        HttpResponse<String> wrongMethod = http.send(
                HttpRequest.newBuilder(URI.create(base + "/verify/schema"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, wrongMethod.statusCode(), wrongMethod.body());
        assertEquals(
                "method_not_allowed",
                StrictJson.parse(wrongMethod.body()).get("code").asString());
        // One limit, one answer: just over it and far over it (3 MiB) give the same document.
        for (int size : List.of(1024 * 1024 + 1, 3 * 1024 * 1024)) {
            byte[] body = new byte[size];
            java.util.Arrays.fill(body, (byte) ' ');
            HttpResponse<String> tooLarge = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/verify/schema"))
                            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(413, tooLarge.statusCode(), "size " + size);
            JsonNode error = StrictJson.parse(tooLarge.body());
            assertEquals("payload_too_large", error.get("code").asString());
            assertTrue(error.get("message").asString().contains("1048576"), tooLarge.body());
        }
        // A path Jetty cannot decode never reaches a route: still the document, never an HTML page.
        try (java.net.Socket socket =
                new java.net.Socket("127.0.0.1", URI.create(base).getPort())) {
            socket.getOutputStream()
                    .write("GET /score/a%00b HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String raw = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(raw.startsWith("HTTP/1.1 4"), raw);
            String body = raw.substring(raw.indexOf("\r\n\r\n") + 4);
            assertTrue(body.contains("\"code\""), raw);
            assertTrue(!body.contains("<html"), raw);
        }
    }

    @Test
    void oneFeedClientOrMcpStreamTooManyIsServerBusy() throws Exception {
        {
            HttpRequest feed = HttpRequest.newBuilder(URI.create(node.httpUrl() + "/feed/receipts"))
                    .header("Accept", "text/event-stream")
                    .header("Authorization", "Bearer " + node.operatorToken().orElseThrow())
                    .build();
            List<InputStream> open = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                HttpResponse<InputStream> stream = http.sendAsync(feed, HttpResponse.BodyHandlers.ofInputStream())
                        .get(10, TimeUnit.SECONDS);
                assertEquals(200, stream.statusCode());
                open.add(stream.body());
            }
            assertBusy(http.send(feed, HttpResponse.BodyHandlers.ofString()));

            String mcp = node.httpUrl() + "/mcp";
            HttpRequest initialize = HttpRequest.newBuilder(URI.create(mcp))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                            + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                            + "\"clientInfo\":{\"name\":\"limits-test\",\"version\":\"1\"}}}"))
                    .build();
            HttpResponse<String> first = http.send(initialize, HttpResponse.BodyHandlers.ofString());
            assertEquals(200, first.statusCode(), first.body());
            String session = first.headers().firstValue("Mcp-Session-Id").orElseThrow();
            // The stream holds its slot from the moment the server takes it, before any event is sent.
            // With one slot, a probe can race the stream for it: whichever loses is refused, so the
            // stream is reopened until a probe is refused while the stream is still open.
            HttpRequest listen = HttpRequest.newBuilder(URI.create(mcp))
                    .header("Accept", "text/event-stream")
                    .header("Mcp-Session-Id", session)
                    .build();
            var listening = http.sendAsync(listen, HttpResponse.BodyHandlers.ofInputStream());
            HttpResponse<String> another = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                Thread.sleep(300);
                if (listening.isDone()) {
                    assertEquals(503, listening.join().statusCode(), "a stream ends only when refused");
                    listening = http.sendAsync(listen, HttpResponse.BodyHandlers.ofInputStream());
                    continue;
                }
                another = http.send(initialize, HttpResponse.BodyHandlers.ofString());
                if (another.statusCode() == 503 && !listening.isDone()) {
                    break;
                }
            }
            assertBusy(another);
            HttpResponse<String> health = http.send(
                    HttpRequest.newBuilder(URI.create(node.httpUrl() + "/health"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(health.statusCode() == 200 || health.statusCode() == 503, "the rest of the API answers");
            listening.cancel(true);
            for (InputStream stream : open) {
                stream.close();
            }
        }
    }
}
