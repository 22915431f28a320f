package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.StrictJson;
import dev.proofline.cli.ProoflineCliAccess;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Who may read what, through a real HTTP client against a running node on the real broker: every
 * route for every role (anonymous, a caller, another caller, an operator, a revoked key, a made-up
 * key), keys issued and revoked with the CLI, a second instance seeing a revocation, a caller
 * record forged straight onto Kafka, and a bound agent whose score strangers cannot move.
 */
class AccessIT {
    @TempDir
    static Path tmp;

    static TestKafka kafka;
    static ProoflineNode node;
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final Map<String, String> TOKENS = new LinkedHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        kafka = TestKafka.start(tmp.resolve("broker"));
        node = TestNodes.start(kafka.bootstrapServers(), tmp, Map.of("http.cors.origins", "https://app.example"));
        TOKENS.put("anonymous", null);
        TOKENS.put("operator", node.operatorToken().orElseThrow());
        TOKENS.put("alice", addCaller("alice", "--agents", "bound-agent-*"));
        TOKENS.put("bob", addCaller("bob"));
        TOKENS.put("revoked", addCaller("carol"));
        assertEquals(0, cli("revoke", "carol"));
        TOKENS.put("made-up", "pl_" + "A".repeat(43));
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    /** A registry of this deployment's callers (its secret) read from {@code topic}. */
    private static dev.proofline.access.CallerRegistry callers(String topic) throws Exception {
        return dev.proofline.access.CallerRegistry.open(
                Map.of(org.apache.kafka.clients.CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                topic,
                dev.proofline.attestor.DeploymentSecret.open(tmp.resolve("node").resolve("keys")),
                java.util.Optional.empty(),
                Map.of());
    }

    /** Writes to {@code to} what compaction would leave of {@code from}: the last record of each key, in order. */
    private static void copyAsCompacted(String from, String to) throws Exception {
        Map<String, org.apache.kafka.clients.consumer.ConsumerRecord<String, String>> last = new LinkedHashMap<>();
        try (org.apache.kafka.clients.consumer.KafkaConsumer<String, String> consumer =
                new org.apache.kafka.clients.consumer.KafkaConsumer<>(
                        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                        new org.apache.kafka.common.serialization.StringDeserializer(),
                        new org.apache.kafka.common.serialization.StringDeserializer())) {
            org.apache.kafka.common.TopicPartition partition = new org.apache.kafka.common.TopicPartition(from, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (consumer.position(partition) < end) {
                assertTrue(System.nanoTime() < deadline, from + " not read to its end within 60 s");
                for (var record : consumer.poll(Duration.ofMillis(200))) {
                    last.remove(record.key());
                    last.put(record.key(), record);
                }
            }
        }
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(to, 1, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (var record : last.values()) {
                producer.send(new ProducerRecord<>(to, 0, record.key(), record.value(), record.headers()))
                        .get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static int cli(String... words) {
        List<String> args = new ArrayList<>(List.of("caller"));
        args.addAll(List.of(words));
        args.addAll(List.of(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--data-dir",
                tmp.resolve("node").toString()));
        return ProoflineCliAccess.run(args, new ByteArrayOutputStream());
    }

    /** {@code caller add}: the token is printed once, alone on stdout. */
    private static String addCaller(String name, String... more) {
        List<String> args = new ArrayList<>(List.of("caller", "add", name));
        args.addAll(List.of(more));
        args.addAll(List.of(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--data-dir",
                tmp.resolve("node").toString()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, ProoflineCliAccess.run(args, out));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.matches("pl_[A-Za-z0-9_-]{43}\n"), printed);
        return printed.trim();
    }

    private static HttpResponse<String> call(String method, String path, String token, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.httpUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The status only, for streams too (the feed never ends): headers are enough. */
    private static int status(String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.httpUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .header("Accept", "text/event-stream"); // the feed's only form
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<InputStream> response = HTTP.sendAsync(request.build(), HttpResponse.BodyHandlers.ofInputStream())
                .get(30, TimeUnit.SECONDS);
        response.body().close();
        return response.statusCode();
    }

    private static String request(String agent, String task) throws Exception {
        return Files.readString(Conformance.file("requests/invoice-final.json"))
                .replace("test-seller-invoice-agent", agent)
                .replace("invoice-7731-final", task);
    }

    private static JsonNode verify(String agent, String task, String token) throws Exception {
        HttpResponse<String> answer = call("POST", "/verify/schema", token, request(agent, task));
        assertEquals(200, answer.statusCode(), answer.body());
        return StrictJson.parse(answer.body());
    }

    private static String produceOnKafka(String agent, String task) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            RecordMetadata written = producer.send(new ProducerRecord<>("agent-outputs", agent, request(agent, task)))
                    .get(30, TimeUnit.SECONDS);
            return new dev.proofline.schemas.VerificationIds(dev.proofline.attestor.DeploymentSecret.open(
                                    tmp.resolve("node").resolve("keys"))
                            .keyFor("verification-ids"))
                    .of(written.topic(), written.partition(), written.offset())
                    .toString();
        }
    }

    /** Waits until the operator can read the receipt: the index follows the receipts topic. */
    private static void awaitIndexed(String id) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (call("GET", "/receipts/" + id, TOKENS.get("operator"), null).statusCode() == 200) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(id + " was never indexed");
    }

    @Test
    void everyRouteAnswersEveryRoleAsTheTableSays() throws Exception {
        String byAlice = verify("bound-agent-1", "access-1", TOKENS.get("alice"))
                .get("verification_id")
                .asString();
        String byAnonymous =
                verify("open-agent", "access-2", null).get("verification_id").asString();
        String byKafka = produceOnKafka("open-agent", "access-3");
        for (String id : List.of(byAlice, byAnonymous, byKafka)) {
            awaitIndexed(id);
        }
        String schema = "{\"schema\": \"{\\\"type\\\":\\\"string\\\"}\"}";
        // route -> expected status for: anonymous, operator, alice, bob, revoked, made-up
        Map<String, List<Integer>> table = new LinkedHashMap<>();
        table.put("GET /score/open-agent", List.of(200, 200, 200, 200, 401, 401));
        table.put("GET /reputation/open-agent", List.of(200, 200, 200, 200, 401, 401));
        table.put("GET /agents", List.of(200, 200, 200, 200, 401, 401));
        table.put("GET /health", List.of(200, 200, 200, 200, 401, 401));
        table.put("GET /.well-known/agent-card.json", List.of(200, 200, 200, 200, 401, 401));
        table.put("GET /dashboard", List.of(200, 200, 200, 200, 401, 401));
        table.put("GET /receipts/" + byAlice, List.of(404, 200, 200, 404, 401, 401));
        table.put("GET /receipts/" + byAnonymous, List.of(200, 200, 404, 404, 401, 401));
        table.put("GET /receipts/" + byKafka, List.of(404, 200, 404, 404, 401, 401));
        table.put("GET /receipts/00000000-0000-8000-8000-000000000000", List.of(404, 404, 404, 404, 401, 401));
        table.put("GET /agents/open-agent/receipts", List.of(401, 200, 403, 403, 401, 401));
        table.put("GET /feed/receipts", List.of(401, 200, 403, 403, 401, 401));
        table.put("GET /metrics", List.of(401, 200, 403, 403, 401, 401));
        table.put("GET /internal/agents", List.of(401, 200, 403, 403, 401, 401));
        table.put("GET /no/such/route", List.of(404, 404, 404, 404, 401, 401));
        // Another method on an operator's path is still the operator's.
        table.put("POST /agents/open-agent/receipts", List.of(401, 405, 403, 403, 401, 401));
        table.put("POST /metrics", List.of(401, 405, 403, 403, 401, 401));
        List<String> roles = new ArrayList<>(TOKENS.keySet());
        List<String> failures = new ArrayList<>();
        for (var row : table.entrySet()) {
            String[] route = row.getKey().split(" ", 2);
            for (int r = 0; r < roles.size(); r++) {
                String token = TOKENS.get(roles.get(r));
                int expected = row.getValue().get(r);
                int got;
                String body = "";
                if (route[1].equals("/feed/receipts")) {
                    got = status(route[1], token);
                } else {
                    HttpResponse<String> answer = call(route[0], route[1], token, null);
                    got = answer.statusCode();
                    body = answer.body();
                    if (got == 401) {
                        assertEquals(
                                "Bearer realm=\"proofline\"",
                                answer.headers().firstValue("WWW-Authenticate").orElse(""));
                        assertEquals(
                                "unauthorized",
                                StrictJson.parse(body).get("code").asString());
                    } else if (got == 403) {
                        assertEquals(
                                "forbidden", StrictJson.parse(body).get("code").asString());
                    }
                    assertEquals(
                            "nosniff",
                            answer.headers()
                                    .firstValue("X-Content-Type-Options")
                                    .orElse(""));
                }
                if (got != expected) {
                    failures.add(
                            row.getKey() + " as " + roles.get(r) + ": " + got + " (expected " + expected + ") " + body);
                }
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));

        // Not yours and not there read the same: nobody learns which ids exist.
        String notYours =
                call("GET", "/receipts/" + byAlice, TOKENS.get("bob"), null).body();
        String notThere = call("GET", "/receipts/00000000-0000-8000-8000-000000000000", TOKENS.get("bob"), null)
                .body();
        assertEquals(notThere, notYours);
        HttpResponse<String> own = call("GET", "/receipts/" + byAlice, TOKENS.get("alice"), null);
        assertEquals("no-store", own.headers().firstValue("Cache-Control").orElse(""));
        // Pages load their own scripts and styles; data routes allow nothing.
        for (String page : List.of("/dashboard", "/dashboard/", "/docs", "/docs/", "/docs/index.html")) {
            HttpResponse<String> served = call("GET", page, null, null);
            assertEquals(200, served.statusCode(), page);
            assertTrue(
                    served.headers()
                            .firstValue("Content-Security-Policy")
                            .orElse("")
                            .contains("script-src 'self'"),
                    page);
        }
        assertEquals(
                "default-src 'none'; frame-ancestors 'none'",
                call("GET", "/agents", null, null)
                        .headers()
                        .firstValue("Content-Security-Policy")
                        .orElse(""));
        HttpResponse<String> cors = HTTP.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + "/agents"))
                        .header("Origin", "https://elsewhere.example")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(cors.headers().firstValue("Access-Control-Allow-Origin").isEmpty(), "no CORS for others");
        // An allowed page's preflight for x402's paid retry, which asks to read Payment-Response.
        HttpResponse<String> preflight = HTTP.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + "/verify/schema"))
                        .header("Origin", "https://app.example")
                        .header("Access-Control-Request-Method", "POST")
                        .header("Access-Control-Request-Headers", "payment-signature,access-control-expose-headers")
                        .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        String allowedHeaders =
                preflight.headers().firstValue("Access-Control-Allow-Headers").orElse("");
        assertTrue(
                allowedHeaders.contains("Payment-Signature")
                        && allowedHeaders.contains("Access-Control-Expose-Headers"),
                preflight.statusCode() + " " + preflight.headers());
        // An origin the operator allowed for CORS may use MCP from a browser; any other page may not.
        for (String origin : List.of("https://app.example", "https://elsewhere.example")) {
            HttpResponse<String> initialized = HTTP.send(
                    HttpRequest.newBuilder(URI.create(node.httpUrl() + "/mcp"))
                            .header("Origin", origin)
                            .header("Content-Type", "application/json")
                            .header("Accept", "application/json, text/event-stream")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,"
                                    + "\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"page\",\"version\":\"1\"}}}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            boolean allowed = origin.equals("https://app.example");
            assertEquals(allowed ? 200 : 403, initialized.statusCode(), origin + ": " + initialized.body());
            assertEquals(
                    allowed ? Optional.of(origin) : Optional.empty(),
                    initialized.headers().firstValue("Access-Control-Allow-Origin"),
                    origin);
            initialized.headers().firstValue("Mcp-Session-Id").ifPresent(session -> {
                try {
                    HTTP.send(
                            HttpRequest.newBuilder(URI.create(node.httpUrl() + "/mcp"))
                                    .header("Mcp-Session-Id", session)
                                    .DELETE()
                                    .build(),
                            HttpResponse.BodyHandlers.discarding());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }

        // Registry writes: operators, or this machine with no proxy in between.
        String write = "/subjects/access-it-value/versions";
        HttpResponse<String> throughProxy = HTTP.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + write))
                        .header("X-Forwarded-For", "198.51.100.7")
                        .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                        .POST(HttpRequest.BodyPublishers.ofString(schema))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(401, throughProxy.statusCode(), throughProxy.body());
        // Its body was never read, so the connection ends with the answer, and the answer says so:
        // a client reusing it for the next request lost that request ("no bytes").
        assertEquals(Optional.of("close"), throughProxy.headers().firstValue("Connection"));
        HttpResponse<String> asOperator = HTTP.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + write))
                        .header("X-Forwarded-For", "198.51.100.7")
                        .header("Authorization", "Bearer " + TOKENS.get("operator"))
                        .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                        .POST(HttpRequest.BodyPublishers.ofString(schema))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, asOperator.statusCode(), asOperator.body());

        // Registry clients send the Basic credentials configured for whichever registry: on the
        // registry's public reads they are ignored; elsewhere, and a Bearer key anywhere, are checked.
        java.util.function.BiFunction<String, String, Integer> withAuthorization = (path, authorization) -> {
            try {
                return HTTP.send(
                                HttpRequest.newBuilder(URI.create(node.httpUrl() + path))
                                        .header("Authorization", authorization)
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        String basic = "Basic " + java.util.Base64.getEncoder().encodeToString("user:pass".getBytes());
        assertEquals(200, withAuthorization.apply("/subjects", basic));
        assertEquals(200, withAuthorization.apply("/subjects/access-it-value/versions/latest", basic));
        assertEquals(200, withAuthorization.apply("/schemas/types", basic));
        assertEquals(401, withAuthorization.apply("/subjects", "Bearer made-up-key"));
        assertEquals(401, withAuthorization.apply("/agents", basic), "a scheme Proofline does not take");
        // The leaderboard's limit is what its OpenAPI says, 1 to 1000; anything else is named, not bent.
        for (String limit : List.of("0", "1001", "abc", "")) {
            HttpResponse<String> refused = call("GET", "/agents?limit=" + limit, null, null);
            assertEquals(422, refused.statusCode(), limit + ": " + refused.body());
            assertEquals(
                    "limit",
                    StrictJson.parse(refused.body()).at("/fields/0/field").asString());
        }
        assertEquals(200, call("GET", "/agents?limit=1000", null, null).statusCode());

        // Javalin would route X-HTTP-Method-Override: refused, so access is decided on the real method.
        HttpResponse<String> overridden = HTTP.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + "/agents/open-agent/receipts"))
                        .header("X-HTTP-Method-Override", "GET")
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(400, overridden.statusCode(), overridden.body());
        // A registry write from this machine through a rebinding name or another site is not "local".
        HttpResponse<String> rebound = HTTP.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + write))
                        .header("Origin", "https://elsewhere.example")
                        .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                        .POST(HttpRequest.BodyPublishers.ofString(schema))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(401, rebound.statusCode(), rebound.body());

        // caller list: names and roles, never a token
        ByteArrayOutputStream listed = new ByteArrayOutputStream();
        assertEquals(
                0,
                ProoflineCliAccess.run(
                        List.of(
                                "caller",
                                "list",
                                "--bootstrap-servers",
                                kafka.bootstrapServers(),
                                "--data-dir",
                                tmp.resolve("node").toString()),
                        listed));
        String list = listed.toString(StandardCharsets.UTF_8);
        assertTrue(list.contains("alice") && list.contains("bound-agent-*") && list.contains("revoked"), list);
        // Allowances read as --allowance takes them: the deployment's default, or no limit.
        String alice =
                list.lines().filter(l -> l.startsWith("alice ")).findFirst().orElseThrow();
        assertTrue(alice.contains(" default "), alice);
        String operator = list.lines()
                .filter(l -> l.contains(" operator ") && l.contains("active"))
                .findFirst()
                .orElseThrow();
        assertTrue(operator.contains(" unlimited "), operator);
        assertFalse(list.contains(Long.toString(Long.MAX_VALUE)), list);
        for (String token : TOKENS.values()) {
            assertTrue(token == null || !list.contains(token), "a token in caller list");
        }
    }

    @Test
    void theSdkSubmitsWithItsKeyAndThatKeyReadsTheReceiptBack() throws Exception {
        try (dev.proofline.client.ProoflineClient client = dev.proofline.client.ProoflineClient.builder()
                .baseUrl(node.httpUrl())
                .apiKey(TOKENS.get("bob"))
                .build()) {
            String id = client.verify(request("open-agent", "sdk-with-key"))
                    .get(30, TimeUnit.SECONDS)
                    .verificationId();
            awaitIndexed(id);
            assertEquals(
                    200, call("GET", "/receipts/" + id, TOKENS.get("bob"), null).statusCode());
            assertEquals(
                    404,
                    call("GET", "/receipts/" + id, TOKENS.get("alice"), null).statusCode());
            assertEquals(404, call("GET", "/receipts/" + id, null, null).statusCode());
        }
    }

    @Test
    void aBoundAgentsScoreMovesOnlyForItsOwner() throws Exception {
        JsonNode own = verify("bound-agent-2", "bound-own", TOKENS.get("alice"));
        assertTrue(own.path("scoring").isMissingNode(), "the owner's receipt counts: " + own);
        for (int i = 0; i < 3; i++) {
            for (String stranger : new String[] {"bob", "anonymous"}) {
                JsonNode receipt = verify("bound-agent-2", "bound-stranger-" + stranger + i, TOKENS.get(stranger));
                assertEquals("pass", receipt.get("result").asString());
                assertFalse(receipt.get("scoring").get("counted").asBoolean(), receipt.toString());
            }
        }
        awaitIndexed(own.get("verification_id").asString());
        Thread.sleep(2000); // the strangers' six receipts went before and after; give the KTable time
        JsonNode reputation = StrictJson.parse(
                call("GET", "/reputation/bound-agent-2", null, null).body());
        assertEquals(1, reputation.get("total").asLong(), reputation.toString());
    }

    /** An open feed outlives the request the filter checked: revoking its operator key closes it. */
    @Test
    void aRevokedOperatorsOpenFeedIsClosed() throws Exception {
        String feeder = addCaller("feeder", "--role", "operator");
        HttpRequest feed = HttpRequest.newBuilder(URI.create(node.httpUrl() + "/feed/receipts"))
                .header("Authorization", "Bearer " + feeder)
                .header("Accept", "text/event-stream")
                .build();
        HttpResponse<InputStream> stream = HTTP.send(feed, HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, stream.statusCode());
        java.util.concurrent.CompletableFuture<Void> ended = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try (InputStream in = stream.body()) {
                in.transferTo(java.io.OutputStream.nullOutputStream());
            } catch (java.io.IOException closed) {
                // closed either way
            }
        });
        Thread.sleep(1500);
        assertFalse(ended.isDone(), "the stream stays open while the key is active");
        assertEquals(0, cli("revoke", "feeder"));
        ended.get(15, TimeUnit.SECONDS);
    }

    @Test
    void aRevocationReachesASecondInstanceWithinSecondsAndForgedKeysAreIgnored() throws Exception {
        String dave = addCaller("dave");
        Map<String, String> sharing =
                Map.of("keys.dir", tmp.resolve("node").resolve("keys").toString());
        try (ProoflineNode second = TestNodes.start(kafka.bootstrapServers(), tmp.resolve("second"), sharing)) {
            assertTrue(second.newOperatorToken().isEmpty(), "a joining instance makes no operator key");
            HttpRequest metrics = HttpRequest.newBuilder(URI.create(second.httpUrl() + "/health"))
                    .header("Authorization", "Bearer " + dave)
                    .build();
            assertEquals(
                    200,
                    HTTP.send(metrics, HttpResponse.BodyHandlers.discarding()).statusCode());
            assertEquals(0, cli("revoke", "dave"));
            long revokedAt = System.nanoTime();
            int status = 200;
            while (status != 401 && System.nanoTime() - revokedAt < TimeUnit.SECONDS.toNanos(10)) {
                status = HTTP.send(metrics, HttpResponse.BodyHandlers.discarding())
                        .statusCode();
                Thread.sleep(50);
            }
            assertEquals(401, status, "the second instance still accepts a revoked key after 10 s");
            System.out.printf(
                    "revocation seen by the second instance after %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - revokedAt));
        }

        // Someone who can write to Kafka but has no secret writes an operator record: it is ignored.
        String minted = "pl_" + "M".repeat(43);
        String forged = new dev.proofline.access.CallerRecord(
                        "mallory",
                        dev.proofline.access.CallerRole.OPERATOR,
                        dev.proofline.access.CallerTokens.hash(minted),
                        null,
                        dev.proofline.access.AgentPatterns.NONE,
                        java.time.Instant.now(),
                        null)
                .toJson();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>("proofline-callers", "mallory", forged))
                    .get(30, TimeUnit.SECONDS);
        }
        // A revocation is for ever: carol's old "active" record, signed and written again, is ignored.
        try (dev.proofline.access.CallerRegistry replay = callers("proofline-callers")) {
            dev.proofline.access.CallerRecord carol = replay.named("carol").orElseThrow();
            replay.put(new dev.proofline.access.CallerRecord(
                    carol.name(),
                    carol.role(),
                    carol.tokenSha256(),
                    carol.allowance(),
                    carol.agents(),
                    carol.createdAt(),
                    null));
        }
        Thread.sleep(2000);
        assertEquals(401, call("GET", "/health", TOKENS.get("revoked"), null).statusCode(), "revoked stays revoked");
        // ... also on an instance that starts after compaction kept only the last record of each key,
        // which for "carol" is now that old "active" one.
        copyAsCompacted("proofline-callers", "proofline-callers-compacted");
        try (dev.proofline.access.CallerRegistry fresh = callers("proofline-callers-compacted")) {
            assertTrue(fresh.byToken(TOKENS.get("bob")).isPresent(), "the copy holds the active keys");
            assertTrue(fresh.byToken(TOKENS.get("revoked")).isEmpty(), "a revocation compaction cannot undo");
        }
        assertEquals(401, call("GET", "/metrics", minted, null).statusCode());
        String scraped = call("GET", "/metrics", TOKENS.get("operator"), null).body();
        assertTrue(scraped.contains("proofline_forged_caller_records_total 1.0"), scraped);
        assertNotNull(scraped);
    }
}
