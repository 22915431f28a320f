package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Long-lived connections are capped per instance: one live-feed client or one MCP stream too many
 * gets 503 {@code server_busy} with the uniform document and Retry-After, and the rest of the API
 * keeps answering.
 */
// The busy test fills the one MCP slot and may hold it after it ends: it runs last.
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConnectionLimitsIT {
    @TempDir
    static Path tmp;

    static TestKafka kafka;
    static ProoflineNode node;

    @BeforeAll
    static void start() throws Exception {
        kafka = TestKafka.start(tmp.resolve("broker"));
        node = TestNodes.start(
                kafka.bootstrapServers(),
                tmp,
                Map.of("http.feed.max.clients", "2", "mcp.max.connections", "1", "mcp.max.sessions", "2"));
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
        assertDocument(404, "not_found", notFound.statusCode(), notFound.body());
        HttpResponse<String> fromAPage = http.send(
                HttpRequest.newBuilder(URI.create(base + "/agents"))
                        .header("Origin", "https://app.example")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, fromAPage.statusCode());
        assertTrue(fromAPage.headers().firstValue("Access-Control-Allow-Origin").isEmpty(), "no CORS by default");
        HttpResponse<String> wrongMethod = http.send(
                HttpRequest.newBuilder(URI.create(base + "/verify/schema"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertDocument(405, "method_not_allowed", wrongMethod.statusCode(), wrongMethod.body());
        // RFC 9110 asks a 405 to say which methods the path takes.
        assertEquals(
                "POST",
                wrongMethod.headers().firstValue("Allow").orElse(""),
                wrongMethod.headers().toString());
        HttpResponse<String> wrongMethodOnGet = http.send(
                HttpRequest.newBuilder(URI.create(base + "/agents"))
                        .PUT(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertDocument(405, "method_not_allowed", wrongMethodOnGet.statusCode(), wrongMethodOnGet.body());
        assertTrue(
                wrongMethodOnGet.headers().firstValue("Allow").orElse("").contains("GET"),
                wrongMethodOnGet.headers().toString());
        // One limit, one answer: just over it and far over it (3 MiB) give the same document.
        for (int size : List.of(1024 * 1024 + 1, 3 * 1024 * 1024)) {
            byte[] body = new byte[size];
            java.util.Arrays.fill(body, (byte) ' ');
            HttpResponse<String> tooLarge = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/verify/schema"))
                            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertDocument(413, "payload_too_large", tooLarge.statusCode(), tooLarge.body());
            assertTrue(
                    StrictJson.parse(tooLarge.body()).get("message").asString().contains("1048576"), tooLarge.body());
        }
        // Requests Jetty refuses before any route runs, written raw since an HTTP client would refuse
        // to send them: still the document, never an HTML page, and its status is the one sent.
        String longPath = "/agents/" + "a".repeat(20_000);
        String longHeader = "X-Long: " + "a".repeat(20_000) + "\r\n";
        Map<String, Integer> refused = Map.of(
                "GET /score/a%00b HTTP/1.1\r\n",
                400,
                "GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\n",
                400,
                "GET " + longPath + " HTTP/1.1\r\n",
                414,
                "GET /agents HTTP/1.1\r\n" + longHeader,
                431,
                "POST /verify/schema HTTP/1.1\r\nX-HTTP-Method-Override: GET\r\nContent-Length: 0\r\n",
                400,
                // The servlet layer would drop an undecodable parameter and answer as if none were sent.
                "GET /agents?limit=%zz HTTP/1.1\r\n",
                400,
                "GET /score/some-agent?as_of=%C3 HTTP/1.1\r\n",
                400,
                // Two times to answer as of: which was meant cannot be told.
                "GET /score/some-agent?as_of=2026-01-01T00:00:00Z&as_of=x HTTP/1.1\r\n",
                422,
                "GET /reputation/some-agent?as_of=1&as_of=1 HTTP/1.1\r\n",
                422);
        for (Map.Entry<String, Integer> request : refused.entrySet()) {
            String what =
                    request.getKey().substring(0, Math.min(60, request.getKey().length()));
            String raw = raw(base, request.getKey() + "Host: 127.0.0.1\r\nConnection: close\r\n\r\n");
            assertTrue(raw.startsWith("HTTP/1.1 " + request.getValue() + " "), what + " -> " + raw);
            String body = raw.substring(raw.indexOf("\r\n\r\n") + 4);
            assertTrue(!body.contains("<html"), raw);
            assertDocument(request.getValue(), "invalid_request", request.getValue(), body);
        }
        // A client waiting for 100 Continue before sending an oversized body is refused at once, not
        // invited to send it.
        String expecting = raw(
                base,
                "POST /verify/schema HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Expect: 100-continue\r\nContent-Length: 2000000\r\n\r\n");
        assertTrue(expecting.startsWith("HTTP/1.1 413 "), expecting);
        assertDocument(413, "payload_too_large", 413, expecting.substring(expecting.indexOf("\r\n\r\n") + 4));
        // A chunked body that breaks HTTP framing is the caller's mistake, not a server failure.
        String broken = raw(
                base,
                "POST /verify/schema HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\nzz\r\n\r\n");
        assertTrue(broken.startsWith("HTTP/1.1 400 "), broken);
        assertDocument(400, "invalid_request", 400, broken.substring(broken.indexOf("\r\n\r\n") + 4));
    }

    /**
     * Javalin reads query parameters in the request's charset and drops any it cannot decode in it:
     * {@code ?limit=0} was answered as if no limit were asked. And Jetty's own refusal of a DELETE
     * (here for its headers) had no body at all.
     */
    @Test
    void aQueryInAnotherCharsetAndJettysRefusalOfAnyMethodGetTheDocument() throws Exception {
        for (String contentType : List.of("text/plain; charset=nope", "text/plain; charset", "a/b; charset=utf-16")) {
            HttpResponse<String> refused = http.send(
                    HttpRequest.newBuilder(URI.create(node.httpUrl() + "/agents?limit=0"))
                            .header("Content-Type", contentType)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertDocument(400, "invalid_request", refused.statusCode(), refused.body());
            assertEquals(
                    "Content-Type",
                    StrictJson.parse(refused.body()).at("/fields/0/field").asString());
        }
        HttpResponse<String> utf8 = http.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + "/agents?limit=0"))
                        .header("Content-Type", "text/plain; charset=UTF-8")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertDocument(422, "invalid_request", utf8.statusCode(), utf8.body());
        // A limit is ASCII digits, once: Java's own parsing would take other scripts' digits and a sign.
        for (String limit : List.of("%EF%BC%95", "%2B5", "5&limit=6", "00001001", "0000")) {
            HttpResponse<String> odd = http.send(
                    HttpRequest.newBuilder(URI.create(node.httpUrl() + "/agents?limit=" + limit))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertDocument(422, "invalid_request", odd.statusCode(), odd.body());
        }
        // Leading zeros, however many, are the same number: 01 and 0001000 alike are taken.
        for (String limit : List.of("01", "0001000")) {
            HttpResponse<String> zeros = http.send(
                    HttpRequest.newBuilder(URI.create(node.httpUrl() + "/agents?limit=" + limit))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, zeros.statusCode(), limit + ": " + zeros.body());
        }
        String host = "Host: 127.0.0.1:" + URI.create(node.httpUrl()).getPort() + "\r\nConnection: close\r\n";
        for (String method : List.of("DELETE", "PUT", "PATCH")) {
            String answer = raw(
                    node.httpUrl(),
                    method + " /mcp HTTP/1.1\r\n" + host + "X-Long: " + "x".repeat(20_000) + "\r\n\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 431 "), method + " -> " + answer);
            assertDocument(431, "invalid_request", 431, bodyOf(answer));
        }
    }

    @Test
    void mcpTransportRefusalsAreTheUniformDocumentWithoutTheSdksStackTrace() throws Exception {
        String host = "Host: 127.0.0.1:" + URI.create(node.httpUrl()).getPort() + "\r\nConnection: close\r\n";
        record Refusal(String request, int status, String code) {}
        List<Refusal> refusals = List.of(
                new Refusal("PUT /mcp HTTP/1.1\r\n" + host + "Content-Length: 0\r\n", 405, "method_not_allowed"),
                new Refusal("PATCH /mcp HTTP/1.1\r\n" + host + "Content-Length: 0\r\n", 405, "method_not_allowed"),
                // No listening stream is offered: GET is the transport's 405.
                new Refusal(
                        "GET /mcp HTTP/1.1\r\n" + host + "Accept: text/event-stream\r\n", 405, "method_not_allowed"),
                new Refusal("DELETE /mcp HTTP/1.1\r\n" + host, 400, "invalid_request"),
                new Refusal(
                        "POST /mcp HTTP/1.1\r\n" + host + "Content-Type: text/plain\r\n"
                                + "Accept: application/json, text/event-stream\r\nContent-Length: 2\r\n",
                        415,
                        "invalid_request"),
                // Against DNS rebinding: another Host, or a page of another Origin.
                new Refusal(
                        "POST /mcp HTTP/1.1\r\nHost: rebound.example\r\nConnection: close\r\n"
                                + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                                + "Content-Length: 2\r\n",
                        421,
                        "invalid_request"),
                new Refusal(
                        "POST /mcp HTTP/1.1\r\n" + host + "Origin: http://rebound.example\r\n"
                                + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                                + "Content-Length: 2\r\n",
                        403,
                        "invalid_request"));
        for (Refusal refusal : refusals) {
            String raw = raw(
                    node.httpUrl(),
                    refusal.request() + "\r\n" + (refusal.request().contains("Content-Length: 2") ? "{}" : ""));
            String what = refusal.request().substring(0, refusal.request().indexOf(' ', 4));
            assertTrue(raw.startsWith("HTTP/1.1 " + refusal.status() + " "), what + " -> " + raw);
            String body = raw.substring(raw.indexOf("\r\n\r\n") + 4);
            assertTrue(!body.contains("stackTrace") && !body.contains("io.modelcontextprotocol"), what + " -> " + raw);
            assertDocument(refusal.status(), refusal.code(), refusal.status(), body);
            if (refusal.status() == 405) {
                assertTrue(raw.contains("\r\nAllow: POST, DELETE, OPTIONS\r\n"), raw);
            }
            if (refusal.status() == 421 || refusal.status() == 403) {
                String field = refusal.status() == 421 ? "Host" : "Origin";
                assertEquals(field, StrictJson.parse(body).at("/fields/0/field").asString(), raw);
            }
        }
        // A page of another site learns nothing, not even what is wrong with its message: an
        // initialize without params (Proofline's own -32602 otherwise) is refused for its Origin.
        String noParams = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}";
        String rebound = raw(
                node.httpUrl(),
                "POST /mcp HTTP/1.1\r\n" + host + "Origin: http://rebound.example\r\n"
                        + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                        + "Content-Length: " + noParams.length() + "\r\n\r\n" + noParams);
        assertTrue(rebound.startsWith("HTTP/1.1 403 "), rebound);
        assertEquals(
                "Origin",
                StrictJson.parse(rebound.substring(rebound.indexOf("\r\n\r\n") + 4))
                        .at("/fields/0/field")
                        .asString());
        // A lone surrogate would come back in the answer (its id) as bytes that are not UTF-8: refused.
        String lone = "{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}}";
        String loneAnswer = raw(
                node.httpUrl(),
                "POST /mcp HTTP/1.1\r\n" + host + "Content-Type: application/json\r\n"
                        + "Accept: application/json, text/event-stream\r\nContent-Length: " + lone.length()
                        + "\r\n\r\n" + lone);
        assertTrue(loneAnswer.startsWith("HTTP/1.1 400 "), loneAnswer);
        String loneBody = loneAnswer.substring(loneAnswer.indexOf("\r\n\r\n") + 4);
        assertDocument(400, "invalid_request", 400, loneBody);
        assertEquals("body", StrictJson.parse(loneBody).at("/fields/0/field").asString(), loneAnswer);
        // An initialize with two meanings (an id twice) naming a made-up session: refused like any
        // other, never opened as a session the limit did not count.
        String twiceInitialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}}";
        String twiceAnswer = mcpPost(host, "Mcp-Session-Id: made-up-session\r\n", twiceInitialize);
        assertTrue(twiceAnswer.startsWith("HTTP/1.1 400 "), twiceAnswer);
        assertFalse(twiceAnswer.toLowerCase(java.util.Locale.ROOT).contains("\r\nmcp-session-id:"), twiceAnswer);
        assertEquals(
                "body",
                StrictJson.parse(bodyOf(twiceAnswer)).at("/fields/0/field").asString(),
                twiceAnswer);
        // A malformed tools/call outside any session is refused for its missing session, as the SDK
        // refuses any message but initialize, not answered as if a session held it.
        String call = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"verify_schema\",\"arguments\":\"text\"}}";
        String noSession = mcpPost(host, "", call);
        assertTrue(noSession.startsWith("HTTP/1.1 400 "), noSession);
        assertEquals(
                "Mcp-Session-Id",
                StrictJson.parse(bodyOf(noSession)).at("/fields/0/field").asString());
        String unknownSession = mcpPost(host, "Mcp-Session-Id: no-such-session\r\n", call);
        assertTrue(unknownSession.startsWith("HTTP/1.1 404 "), unknownSession);
        // In a session, a JSON null and a response this server never asked for: the SDK failed on both (500).
        HttpResponse<String> opened =
                http.send(initialize(node.httpUrl() + "/mcp", "shapes"), HttpResponse.BodyHandlers.ofString());
        String sessionId = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
        try {
            String session = "Mcp-Session-Id: " + sessionId + "\r\n";
            for (String notAMessage : List.of("null", "{\"jsonrpc\":\"2.0\",\"id\":14,\"result\":{}}")) {
                String refused = raw(
                        node.httpUrl(),
                        "POST /mcp HTTP/1.1\r\n" + host + session + "Content-Type: application/json\r\n"
                                + "Accept: application/json, text/event-stream\r\nContent-Length: "
                                + notAMessage.length() + "\r\n\r\n" + notAMessage);
                assertTrue(refused.startsWith("HTTP/1.1 400 "), notAMessage + " -> " + refused);
                String body = refused.substring(refused.indexOf("\r\n\r\n") + 4);
                assertDocument(400, "invalid_request", 400, body);
                assertEquals(
                        "body", StrictJson.parse(body).at("/fields/0/field").asString(), refused);
            }
            // The SDK cannot read arguments that are not an object and would end the stream without an
            // answer: JSON-RPC's invalid params instead, so the client is not left waiting.
            String invalidParams = mcpPost(host, session, call);
            assertTrue(invalidParams.startsWith("HTTP/1.1 200 "), invalidParams);
            JsonNode answer = StrictJson.parse(bodyOf(invalidParams));
            assertEquals(7, answer.get("id").asInt(), invalidParams);
            assertEquals(-32602, answer.path("error").path("code").asInt(), invalidParams);
            // A tool this server does not have: invalid params, without the name sent back.
            assertJsonRpcErrorNotNaming(
                    -32602,
                    "no_such_tool",
                    mcpPost(
                            host,
                            session,
                            "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"no_such_tool_"
                                    + "y".repeat(2000) + "\",\"arguments\":{}}}"));
            // A method MCP does not define: method not found, without the name sent back (the SDK's
            // own answer repeated it, a megabyte if sent one).
            assertJsonRpcErrorNotNaming(
                    -32601,
                    "no_such_method",
                    mcpPost(
                            host,
                            session,
                            "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"no_such_method_" + "z".repeat(2000) + "\"}"));
            // Media types are case-insensitive (RFC 9110): the SDK looked for them as written.
            String pingInCase = "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\"}";
            String folded = raw(
                    node.httpUrl(),
                    "POST /mcp HTTP/1.1\r\n" + host + session + "Content-Type: Application/JSON\r\n"
                            + "Accept: Application/Json, Text/Event-Stream\r\nContent-Length: " + pingInCase.length()
                            + "\r\n\r\n" + pingInCase);
            assertTrue(folded.startsWith("HTTP/1.1 200 "), folded);
            // (answered as the SDK answers a ping: an event stream, or chunks, holding the result)
            assertTrue(folded.contains("\"id\":10") && folded.contains("\"result\""), folded);
            // What the SDK's request type cannot hold (it failed with 500): 400 naming the field. And a
            // body whose words match the SDK's messages is still blamed on the body, not a header.
            String[][] misshapen = {
                {"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", "id"},
                {"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", "id"},
                {"{\"jsonrpc\":\"2.0\",\"id\":18446744073709551616,\"method\":\"ping\"}", "id"},
                {"{\"id\":16,\"method\":\"ping\"}", "jsonrpc"},
                // What the SDK would answer as if it were whole: 400 too, before it is answered.
                {"{\"jsonrpc\":\"1.0\",\"id\":4,\"method\":\"ping\"}", "jsonrpc"},
                {"{\"jsonrpc\":2,\"id\":4,\"method\":\"ping\"}", "jsonrpc"},
                {"{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":5}", "method"},
                {"{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"tools/list\",\"params\":\"x\"}", "params"},
                {"{\"jsonrpc\":\"2.0\",\"id\":17,\"x\":\"Session not found Accept Content-Type\"}", "body"}
            };
            for (String[] shape : misshapen) {
                String refused = mcpPost(host, session, shape[0]);
                assertTrue(refused.startsWith("HTTP/1.1 400 "), shape[0] + " -> " + refused);
                assertDocument(400, "invalid_request", 400, bodyOf(refused));
                assertEquals(
                        shape[1],
                        StrictJson.parse(bodyOf(refused)).at("/fields/0/field").asString(),
                        refused);
            }
            // Notifications are accepted with 202 and no body: roots/list_changed too, whose SDK handler
            // asks the client for its roots over a listening stream this server never offers.
            for (String notification : List.of("notifications/roots/list_changed", "notifications/cancelled")) {
                String accepted = mcpPost(host, session, "{\"jsonrpc\":\"2.0\",\"method\":\"" + notification + "\"}");
                assertTrue(accepted.startsWith("HTTP/1.1 202 "), notification + " -> " + accepted);
            }
            // A streamed answer keeps Proofline's no-store (the SDK sets no-cache on its streams).
            String listed = mcpPost(host, session, "{\"jsonrpc\":\"2.0\",\"id\":18,\"method\":\"tools/list\"}");
            assertTrue(listed.startsWith("HTTP/1.1 200 "), listed);
            assertTrue(listed.contains("\r\nCache-Control: no-store\r\n"), listed);
            assertFalse(listed.contains("no-cache"), listed);
            // Loopback names are this machine's, never another site's rebound name.
            String ipv6 = mcpPost(
                    "Host: [::1]:" + URI.create(node.httpUrl()).getPort() + "\r\nConnection: close\r\n",
                    session,
                    "{\"jsonrpc\":\"2.0\",\"id\":19,\"method\":\"ping\"}");
            assertTrue(ipv6.startsWith("HTTP/1.1 200 "), ipv6);
            // In a session, a protocol version the server does not speak is 400 (Streamable HTTP).
            String ping = "{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"ping\"}";
            for (String version : List.of("1999-01-01", "2025-06-18")) {
                String answered = raw(
                        node.httpUrl(),
                        "POST /mcp HTTP/1.1\r\n" + host + session + "MCP-Protocol-Version: " + version + "\r\n"
                                + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                                + "Content-Length: " + ping.length() + "\r\n\r\n" + ping);
                if (version.equals("2025-06-18")) {
                    assertTrue(answered.startsWith("HTTP/1.1 200 "), answered);
                    continue;
                }
                assertTrue(answered.startsWith("HTTP/1.1 400 "), answered);
                String body = answered.substring(answered.indexOf("\r\n\r\n") + 4);
                assertDocument(400, "invalid_request", 400, body);
                assertEquals(
                        "MCP-Protocol-Version",
                        StrictJson.parse(body).at("/fields/0/field").asString());
            }
        } finally {
            // This class's node holds two sessions at most: give this one back whatever happened.
            HttpResponse<Void> deleted = http.send(
                    HttpRequest.newBuilder(URI.create(node.httpUrl() + "/mcp"))
                            .header("Mcp-Session-Id", sessionId)
                            .DELETE()
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            assertTrue(deleted.statusCode() < 300, "DELETE of the session: " + deleted.statusCode());
        }
    }

    @Test
    void oneMcpSessionTooManyIsServerBusyUntilOneIsDeleted() throws Exception {
        String mcp = node.httpUrl() + "/mcp";
        HttpRequest initialize = initialize(mcp, "sessions-test");
        List<String> open = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> opened = http.send(initialize, HttpResponse.BodyHandlers.ofString());
            assertEquals(200, opened.statusCode(), opened.body());
            open.add(opened.headers().firstValue("Mcp-Session-Id").orElseThrow());
        }
        assertBusy(http.send(initialize, HttpResponse.BodyHandlers.ofString()));
        // An initialize naming a session, made up or old, still opens a new one: it counts too.
        assertBusy(http.send(
                HttpRequest.newBuilder(initialize, (name, value) -> true)
                        .header("Mcp-Session-Id", "stale-" + open.get(0))
                        .build(),
                HttpResponse.BodyHandlers.ofString()));
        for (String session : open) {
            HttpResponse<String> deleted = http.send(
                    HttpRequest.newBuilder(URI.create(mcp))
                            .header("Mcp-Session-Id", session)
                            .DELETE()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(deleted.statusCode() < 300, deleted.statusCode() + " " + deleted.body());
        }
        HttpResponse<String> again = http.send(initialize, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, again.statusCode(), again.body());
        http.send(
                HttpRequest.newBuilder(URI.create(mcp))
                        .header(
                                "Mcp-Session-Id",
                                again.headers().firstValue("Mcp-Session-Id").orElseThrow())
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aClientAskingAgainAsSoonAsItHasItsAnswerIsNeverRefused() throws Exception {
        // The one slot is given back before the answer's last byte leaves, so a client at the limit
        // that asks again at once, on a new connection or on the same one, is always let in.
        String mcp = node.httpUrl() + "/mcp";
        HttpResponse<String> opened = http.send(initialize(mcp, "back-to-back"), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, opened.statusCode(), opened.body());
        String session = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}";
        String host = "Host: 127.0.0.1:" + URI.create(mcp).getPort() + "\r\n";
        try {
            for (int i = 0; i < 300; i++) {
                if (i % 2 == 0) {
                    String answer = raw(
                            mcp,
                            "POST /mcp HTTP/1.1\r\n" + host + "Connection: close\r\nMcp-Session-Id: " + session
                                    + "\r\nContent-Type: application/json\r\n"
                                    + "Accept: application/json, text/event-stream\r\nContent-Length: "
                                    + ping.length() + "\r\n\r\n" + ping);
                    assertTrue(answer.startsWith("HTTP/1.1 200 "), "request " + i + ": " + answer);
                } else {
                    HttpResponse<String> answer =
                            postMessage(mcp, session, ping.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    assertEquals(200, answer.statusCode(), "request " + i + ": " + answer.body());
                }
            }
        } finally {
            HttpResponse<Void> deleted = http.send(
                    HttpRequest.newBuilder(URI.create(mcp))
                            .header("Mcp-Session-Id", session)
                            .DELETE()
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            assertTrue(deleted.statusCode() < 300, "DELETE of the session: " + deleted.statusCode());
        }
    }

    @Test
    void aBodyInAContentCodingIsRefusedNamingTheHeader() throws Exception {
        byte[] request = java.nio.file.Files.readAllBytes(Conformance.file("requests/invoice-final.json"));
        java.io.ByteArrayOutputStream gzipped = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(gzipped)) {
            gzip.write(request);
        }
        for (String path : List.of("/verify/schema", "/mcp")) {
            HttpResponse<String> coded = http.send(
                    HttpRequest.newBuilder(URI.create(node.httpUrl() + path))
                            .header("Content-Type", "application/json")
                            .header("Accept", "application/json, text/event-stream")
                            .header("Content-Encoding", "gzip")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(gzipped.toByteArray()))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertDocument(415, "invalid_request", coded.statusCode(), coded.body());
            assertEquals(
                    "Content-Encoding",
                    StrictJson.parse(coded.body()).at("/fields/0/field").asString());
            assertEquals(
                    "identity", coded.headers().firstValue("Accept-Encoding").orElse(""));
        }
        // A transfer coding Jetty passes on undecoded (chunked last, as HTTP/1.1 asks) is one too:
        // refused on its header, whatever the bytes.
        String host = "Host: 127.0.0.1:" + URI.create(node.httpUrl()).getPort() + "\r\nConnection: close\r\n";
        String gzipChunked = raw(
                node.httpUrl(),
                "POST /verify/schema HTTP/1.1\r\n" + host + "Content-Type: application/json\r\n"
                        + "Transfer-Encoding: gzip, chunked\r\n\r\n" + Integer.toHexString(request.length) + "\r\n"
                        + new String(request, java.nio.charset.StandardCharsets.US_ASCII) + "\r\n0\r\n\r\n");
        assertTrue(gzipChunked.startsWith("HTTP/1.1 415 "), gzipChunked);
        assertTrue(gzipChunked.contains("\"field\":\"Transfer-Encoding\""), gzipChunked);
        // identity is no coding at all: the same request as sent plain.
        HttpResponse<String> identity = http.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + "/verify/schema"))
                        .header("Content-Type", "application/json")
                        .header("Content-Encoding", "identity")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(request))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, identity.statusCode(), identity.body());
    }

    @Test
    void headOptionsTheFeedsAcceptAndTwoAuthorizationsAreAnsweredTruthfully() throws Exception {
        String base = node.httpUrl();
        String host = "Host: 127.0.0.1:" + URI.create(base).getPort() + "\r\nConnection: close\r\n";
        // HEAD is GET without the body: the route runs, so a receipt that does not exist is 404.
        String head = raw(base, "HEAD /receipts/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\n" + host + "\r\n");
        assertTrue(head.startsWith("HTTP/1.1 404 "), head);
        assertTrue(head.endsWith("\r\n\r\n"), "no body: " + head);
        // ...but never holds the feed's stream open, and never takes a payment.
        String headFeed = raw(
                base,
                "HEAD /feed/receipts HTTP/1.1\r\n" + host + "Accept: text/event-stream\r\nAuthorization: Bearer "
                        + node.operatorToken().orElseThrow() + "\r\n\r\n");
        assertTrue(headFeed.startsWith("HTTP/1.1 200 ") && headFeed.endsWith("\r\n\r\n"), "answered and ended");
        // ...with GET's headers: an event stream, and no length (a stream has none).
        assertTrue(headFeed.contains("\r\nContent-Type: text/event-stream"), headFeed);
        assertFalse(headFeed.contains("Content-Length"), headFeed);
        String headPaid = raw(base, "HEAD /score/some-agent HTTP/1.1\r\n" + host + "Payment-Signature: e30=\r\n\r\n");
        assertTrue(headPaid.startsWith("HTTP/1.1 400 "), headPaid);
        String options = raw(base, "OPTIONS /mcp HTTP/1.1\r\n" + host + "\r\n");
        assertTrue(options.contains("\r\nAllow: POST, DELETE, OPTIONS\r\n"), options);
        String token = node.operatorToken().orElseThrow();
        String noStream = raw(
                base,
                "GET /feed/receipts HTTP/1.1\r\n" + host + "Accept: application/json, text/*;q=0\r\n"
                        + "Authorization: Bearer " + token + "\r\n\r\n");
        assertTrue(noStream.startsWith("HTTP/1.1 406 "), noStream.replace(token, "<token>"));
        String noStreamBody = noStream.substring(noStream.indexOf("\r\n\r\n") + 4);
        assertDocument(406, "invalid_request", 406, noStreamBody);
        assertEquals(
                "Accept", StrictJson.parse(noStreamBody).at("/fields/0/field").asString());
        String twice = raw(
                base,
                "GET /metrics HTTP/1.1\r\n" + host + "Authorization: Bearer " + token
                        + "\r\nAuthorization: Bearer not-a-key\r\n\r\n");
        assertTrue(twice.startsWith("HTTP/1.1 400 "), twice.replace(token, "<token>"));
        assertTrue(!twice.contains(token), "the key is never echoed");
        // An id is never trimmed into another one.
        HttpResponse<String> spaced = http.send(
                HttpRequest.newBuilder(URI.create(base + "/score/some-agent%20"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertDocument(422, "invalid_request", spaced.statusCode(), spaced.body());
    }

    @Test
    void mcpVerifiesTheCallersOwnArgumentsAndRefusesWhatRestRefuses() throws Exception {
        String mcp = node.httpUrl() + "/mcp";
        HttpResponse<String> bare = http.send(
                HttpRequest.newBuilder(URI.create(mcp))
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(-32602, StrictJson.parse(bare.body()).at("/error/code").asInt(), bare.body());
        HttpResponse<String> opened = http.send(initialize(mcp, "arguments"), HttpResponse.BodyHandlers.ofString());
        String session = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
        try {
            String request = java.nio.file.Files.readString(
                            dev.proofline.attestor.Conformance.file("requests/invoice-draft.json"))
                    .replace("\"submitted_output\": {", "\"submitted_output\": {\"extra\": 1e400, ");
            // 1e400 is no double: REST refuses it, and so does the tool, naming it; the SDK's own
            // reading of the arguments would have turned it into a string and signed a verdict.
            String answer = call(mcp, session, "{\"name\":\"verify_schema\",\"arguments\":" + request + "}");
            assertTrue(
                    answer.contains("invalid_request") && answer.contains("outside the range of an IEEE 754 double"),
                    answer);
            // A key twice is two meanings: refused before any tool runs.
            String twice = "{\"name\":\"verify_schema\",\"arguments\":{\"task_id\":\"a\",\"task_id\":\"b\"}}";
            HttpResponse<String> refused = post(mcp, session, twice);
            assertDocument(400, "invalid_request", refused.statusCode(), refused.body());
            // Bytes that are not UTF-8: the SDK would read U+FFFD in their place and sign a verdict on
            // text the caller never sent. Refused as REST refuses them, in a ping as in a tool's arguments.
            for (String message : List.of(
                    "{\"jsonrpc\":\"2.0\",\"id\":22,\"method\":\"tools/call\",\"params\":{\"name\":\"verify_schema\","
                            + "\"arguments\":{\"task_id\":\"a\",\"agent_id\":\"test-u\",\"expected_schema\":true,"
                            + "\"submitted_output\":\"BAD\"}}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":23,\"method\":\"ping\",\"params\":{\"x\":\"BAD\"}}")) {
                byte[] bytes = message.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                byte[] body = new byte[bytes.length - 1];
                int at = message.indexOf("BAD");
                System.arraycopy(bytes, 0, body, 0, at);
                body[at] = (byte) 0xC0; // an overlong "/": never UTF-8
                body[at + 1] = (byte) 0xAF;
                System.arraycopy(bytes, at + 3, body, at + 2, bytes.length - at - 3);
                HttpResponse<String> notUtf8 = postMessage(mcp, session, body);
                assertDocument(400, "invalid_request", notUtf8.statusCode(), notUtf8.body());
                JsonNode field = StrictJson.parse(notUtf8.body()).at("/fields/0");
                assertEquals("body", field.get("field").asString(), notUtf8.body());
                assertTrue(field.get("problem").asString().contains("not valid UTF-8"), notUtf8.body());
            }
            // A _meta that is not an object: an answer, not a silent end of the stream.
            String meta = call(mcp, session, "{\"name\":\"verify_schema\",\"_meta\":\"x\",\"arguments\":{}}");
            assertTrue(meta.contains("-32602"), meta);
            // Past twice max.request.bytes, refused before it is read.
            String huge = raw(
                    mcp,
                    "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + URI.create(mcp).getPort() + "\r\nConnection: close\r\n"
                            + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                            + "Mcp-Session-Id: " + session + "\r\nContent-Length: 3000000\r\n\r\n");
            assertTrue(huge.startsWith("HTTP/1.1 413 "), huge);
            assertDocument(413, "payload_too_large", 413, huge.substring(huge.indexOf("\r\n\r\n") + 4));
        } finally {
            http.send(
                    HttpRequest.newBuilder(URI.create(mcp))
                            .header("Mcp-Session-Id", session)
                            .DELETE()
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
        }
    }

    /** A tools/call with these params in the session, its answer's text. */
    private String call(String mcp, String session, String params) throws Exception {
        HttpResponse<String> answer = post(mcp, session, params);
        assertEquals(200, answer.statusCode(), answer.body());
        return answer.body();
    }

    private HttpResponse<String> post(String mcp, String session, String params) throws Exception {
        return postMessage(
                mcp,
                session,
                ("{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"tools/call\",\"params\":" + params + "}")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** One MCP message, these bytes as they are, in the session, over the JDK's client. */
    private HttpResponse<String> postMessage(String mcp, String session, byte[] message) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(mcp))
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream")
                        .header("Mcp-Session-Id", session)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(message))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The uniform document with this code, whose status is the HTTP status it came with. */
    private static void assertDocument(int expectedStatus, String code, int httpStatus, String body) {
        assertEquals(expectedStatus, httpStatus, body);
        JsonNode error = StrictJson.parse(body);
        assertEquals(code, error.get("code").asString(), body);
        assertEquals(httpStatus, error.get("status").asInt(), body);
    }

    /** An MCP initialize, which opens a session, from a client of this name. */
    private static HttpRequest initialize(String mcp, String client) {
        return HttpRequest.newBuilder(URI.create(mcp))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                        + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"" + client + "\",\"version\":\"1\"}}}"))
                .build();
    }

    /** A POST of {@code message} to /mcp with these headers (each line ending in CRLF), answered in full. */
    private static String mcpPost(String hostAndConnection, String session, String message) throws Exception {
        byte[] body = message.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return raw(
                node.httpUrl(),
                "POST /mcp HTTP/1.1\r\n" + hostAndConnection + session + "Content-Type: application/json\r\n"
                        + "Accept: application/json, text/event-stream\r\nContent-Length: " + body.length + "\r\n\r\n"
                        + message);
    }

    /** A JSON-RPC error with this code, answered 200, that does not repeat what was sent. */
    private static void assertJsonRpcErrorNotNaming(int code, String sent, String rawAnswer) {
        assertTrue(rawAnswer.startsWith("HTTP/1.1 200 "), rawAnswer);
        assertEquals(
                code,
                StrictJson.parse(bodyOf(rawAnswer)).path("error").path("code").asInt(),
                rawAnswer);
        assertFalse(rawAnswer.contains(sent), rawAnswer);
    }

    private static String bodyOf(String rawAnswer) {
        return rawAnswer.substring(rawAnswer.indexOf("\r\n\r\n") + 4);
    }

    /** One request written as given, the whole answer read back. */
    private static String raw(String base, String request) throws Exception {
        try (java.net.Socket socket =
                new java.net.Socket("127.0.0.1", URI.create(base).getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void oneFeedClientOrMcpRequestTooManyIsServerBusy() throws Exception {
        {
            HttpRequest feed = HttpRequest.newBuilder(URI.create(node.httpUrl() + "/feed/receipts"))
                    .header("Accept", "text/event-stream")
                    .header("Authorization", "Bearer " + node.operatorToken().orElseThrow())
                    .build();
            List<InputStream> open = new ArrayList<>();
            // The two streams held open: one asked as curl asks (Accept: */*), one with no Accept
            // at all (RFC 9110: any type); both are the event stream.
            List<HttpRequest> asked = List.of(
                    HttpRequest.newBuilder(feed.uri())
                            .header("Accept", "*/*")
                            .header(
                                    "Authorization",
                                    "Bearer " + node.operatorToken().orElseThrow())
                            .build(),
                    HttpRequest.newBuilder(feed.uri())
                            .header(
                                    "Authorization",
                                    "Bearer " + node.operatorToken().orElseThrow())
                            .build());
            for (HttpRequest request : asked) {
                HttpResponse<InputStream> stream = http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream())
                        .get(10, TimeUnit.SECONDS);
                assertEquals(200, stream.statusCode());
                assertEquals(
                        "text/event-stream",
                        stream.headers().firstValue("Content-Type").orElse("").split(";")[0]);
                // One Cache-Control: Javalin's stream handler adds a no-cache of its own.
                assertEquals(List.of("no-store"), stream.headers().allValues("Cache-Control"));
                open.add(stream.body());
            }
            // The server counts a feed once its stream handler runs, a moment after the client has
            // its 200: a probe racing that moment is taken as a third stream, so it is closed and
            // the probe asked again until the count has caught up.
            HttpResponse<InputStream> refused = null;
            for (int attempt = 0; attempt < 20 && refused == null; attempt++) {
                HttpResponse<InputStream> probe = http.sendAsync(feed, HttpResponse.BodyHandlers.ofInputStream())
                        .get(10, TimeUnit.SECONDS);
                if (probe.statusCode() == 200) {
                    probe.body().close();
                    Thread.sleep(100);
                } else {
                    refused = probe;
                }
            }
            assertTrue(refused != null, "every probe was taken as a third feed");
            try (InputStream body = refused.body()) {
                assertEquals(503, refused.statusCode());
                assertEquals(
                        "server_busy",
                        StrictJson.parse(new String(body.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
                                .get("code")
                                .asString());
            }

            String mcp = node.httpUrl() + "/mcp";
            HttpResponse<String> first =
                    http.send(initialize(mcp, "limits-test"), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, first.statusCode(), first.body());
            String session = first.headers().firstValue("Mcp-Session-Id").orElseThrow();
            // An official client asks for a listening stream once initialized: refused with 405, it
            // holds no slot, so idle clients cannot lock the others out.
            HttpResponse<String> listen = http.send(
                    HttpRequest.newBuilder(URI.create(mcp))
                            .header("Accept", "text/event-stream")
                            .header("Mcp-Session-Id", session)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(405, listen.statusCode(), listen.body());
            assertEquals(
                    "POST, DELETE, OPTIONS",
                    listen.headers().firstValue("Allow").orElse(""));
            HttpRequest ping = HttpRequest.newBuilder(URI.create(mcp))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .header("Mcp-Session-Id", session)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"))
                    .build();
            assertEquals(
                    200, http.send(ping, HttpResponse.BodyHandlers.ofString()).statusCode(), "the slot is free");
            // A request still arriving holds the one slot: a POST whose body has not all been sent.
            int port = URI.create(node.httpUrl()).getPort();
            HttpResponse<String> another = null;
            byte[] slowRequest = ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                            + "Content-Type: application/json\r\n"
                            + "Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            java.net.Socket slow = null;
            try {
                while (System.nanoTime() < deadline) {
                    if (slow == null) {
                        slow = new java.net.Socket("127.0.0.1", port);
                        slow.getOutputStream().write(slowRequest);
                        slow.getOutputStream().flush();
                    }
                    Thread.sleep(200); // until the server has taken the slow request's slot
                    if (slow.getInputStream().available() > 0) {
                        // A probe held the slot when the slow request came: it was answered 503. Again.
                        slow.close();
                        slow = null;
                        continue;
                    }
                    another = http.send(ping, HttpResponse.BodyHandlers.ofString());
                    if (another.statusCode() == 503 && slow.getInputStream().available() == 0) {
                        break;
                    }
                }
                assertBusy(another);
            } finally {
                if (slow != null) {
                    slow.close();
                }
            }
            HttpResponse<String> afterwards = null;
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                afterwards = http.send(ping, HttpResponse.BodyHandlers.ofString());
                if (afterwards.statusCode() == 200) {
                    break;
                }
                Thread.sleep(200);
            }
            assertEquals(200, afterwards.statusCode(), "the slot is freed once the slow request ends");
            HttpResponse<String> health = http.send(
                    HttpRequest.newBuilder(URI.create(node.httpUrl() + "/health"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(health.statusCode() == 200 || health.statusCode() == 503, "the rest of the API answers");
            for (InputStream stream : open) {
                stream.close();
            }
        }
    }
}
