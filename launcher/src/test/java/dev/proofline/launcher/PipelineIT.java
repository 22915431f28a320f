package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.Headers;
import dev.proofline.contract.Topics;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.RestSchemaRegistryClient;
import dev.proofline.schemas.avro.Receipt;
import dev.proofline.tlog.NoteVerifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The pipeline on a real KRaft broker: every valid request gets one receipt, every invalid one dead
 * letter; then third-party clients read the receipts. Ordered: the count test must see only its own records.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PipelineIT {
    static final int REQUESTS = 10_000;

    @TempDir
    static Path tmp;

    static TestKafka broker;
    static ProoflineNode node;

    @BeforeAll
    static void start() throws Exception {
        broker = TestKafka.start(tmp.resolve("broker"));
        node = TestNodes.start(broker.bootstrapServers(), tmp);
        System.out.println("pipeline IT ran on " + broker.description());
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    @Order(2)
    void kafkajsAndTheConfluentRegistryClientDecodeReceiptsThroughOurRegistry() throws Exception {
        Assumptions.assumeTrue(
                NodeTools.available(),
                "SKIPPED: node and npm are not installed, so no third-party client read the receipts");
        Path tools = NodeTools.install("kafkajs@2.2.4", "@kafkajs/confluent-schema-registry@4.1.0");
        int requests = 320;
        PipelineHarness.produce(node.bootstrapServers(), "kafkajs-", 0, requests);
        int valid = PipelineHarness.count(0, requests, TestRequests::isValid);
        List<String> lines = NodeTools.run(
                        tools,
                        "kafkajs-read-receipts.js",
                        node.bootstrapServers(),
                        node.httpUrl(),
                        "receipts",
                        "kafkajs-",
                        Integer.toString(valid))
                .lines()
                .toList();
        // Its last line: a schema of its own registered through our registry, as the client does it
        // by default (the subject's level set first), registered again to the same id, and used.
        JsonNode registered = StrictJson.parse(lines.get(lines.size() - 1));
        assertTrue(registered.get("registered").asInt() > 0, registered.toString());
        assertEquals(registered.get("registered"), registered.get("again"), registered.toString());
        assertEquals("hello", registered.get("word").asString());
        lines = lines.subList(0, lines.size() - 1);
        assertEquals(valid, lines.size());
        ReceiptVerifier verifier = new ReceiptVerifier(KeyRing.openOrCreate(tmp.resolve("node/keys"), Clock.systemUTC())
                .trustedKeys());
        for (String line : lines) {
            JsonNode decoded = StrictJson.parse(line);
            JsonNode signed = StrictJson.parse(decoded.get("signed_json").asString());
            assertTrue(
                    verifier.verifySignature(signed, AttestationContext.VERIFY).valid(), line);
            assertEquals(decoded.get("verification_id"), signed.get("verification_id"));
            assertEquals(decoded.get("key"), signed.get("agent_id"));
        }
        System.out.println(
                "kafkajs + @kafkajs/confluent-schema-registry decoded and verified " + lines.size() + " receipts");
    }

    @Test
    @Order(3)
    void scoresFollowTheReceiptsAndAreSignedWithTheScoreContext() throws Exception {
        String agent = "agent-5";
        long passed = 0;
        long failed = 0;
        for (int[] range : new int[][] {{0, REQUESTS}, {0, 320}}) { // the count test's requests, then the kafkajs batch
            for (int i = range[0]; i < range[1]; i++) {
                if (TestRequests.isValid(i) && TestRequests.agentId(i).equals(agent)) {
                    if (i % 3 == 0) {
                        failed++;
                    } else {
                        passed++;
                    }
                }
            }
        }
        JsonNode score = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) { // the KTable follows the receipts topic
            score = get("/score/" + agent, 200);
            if (score.path("inputs").path("total").asLong() == passed + failed) {
                break;
            }
            Thread.sleep(250);
        }
        assertEquals(passed, score.get("inputs").get("passed").asLong());
        assertEquals(failed, score.get("inputs").get("failed").asLong());
        assertEquals(
                dev.proofline.reputation.TrustScore.rounded(dev.proofline.reputation.TrustScore.of(passed, failed)),
                score.get("trust_score").asDouble());

        Path answer = Files.writeString(tmp.resolve("score.json"), score.toString());
        String publicKey = KeyRing.openOrCreate(tmp.resolve("node/keys"), Clock.systemUTC())
                .signingKey()
                .published()
                .publicKey();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int exit = dev.proofline.cli.ProoflineCliAccess.run(
                List.of("receipt-verify", answer.toString(), "--public-key", publicKey, "--context", "score"), out);
        assertEquals("valid\n", out.toString(StandardCharsets.UTF_8));
        assertEquals(0, exit);

        JsonNode none = get("/score/test-seller-invoice-agent", 200);
        assertEquals("no_data", none.get("reason").asString());
        assertEquals("no_data", get("/score/agent-unknown", 200).get("reason").asString());
        for (String placeholder : List.of("%7Bagent_id%7D", ":agent_id", "")) {
            assertEquals(
                    "placeholder_agent_id",
                    get("/score/" + placeholder, 400).get("code").asString(),
                    placeholder);
        }
        JsonNode reputation = get("/reputation/" + agent, 200);
        assertEquals(passed + failed, reputation.get("total").asLong());
        assertEquals(
                dev.proofline.reputation.AgentHistory.RECENT,
                reputation.get("recent_receipts").size());
        assertTrue(reputation.get("attestation") == null, "the plain history is not signed");

        JsonNode unknown = get("/reputation/agent-unknown", 200);
        assertTrue(unknown.get("trust_score").isNull(), "no history is no score, as /score says: " + unknown);
        assertEquals("no_data", unknown.get("reason").asString());
        JsonNode tooLong = get("/score/" + "a".repeat(201), 422);
        assertEquals("invalid_request", tooLong.get("code").asString());
        assertEquals("agent_id", tooLong.get("fields").get(0).get("field").asString());
        assertEquals(
                422, get("/reputation/" + "a".repeat(201), 422).get("status").asInt());
        JsonNode notAnId = get("/receipts/not-a-uuid", 400);
        assertEquals("invalid_verification_id", notAnId.get("code").asString());
        assertFalse(notAnId.get("retryable").asBoolean(), "no receipt will ever have this id");
    }

    @Test
    @Order(4)
    void restFrontDoorAnswersWithTheReceiptTheCliWouldGive() throws Exception {
        ReceiptVerifier verifier = new ReceiptVerifier(KeyRing.openOrCreate(tmp.resolve("node/keys"), Clock.systemUTC())
                .trustedKeys());
        for (String name : List.of("requests/invoice-draft.json", "requests/invoice-final.json")) {
            byte[] body = Files.readAllBytes(dev.proofline.attestor.Conformance.file(name));
            JsonNode viaRest = post("/verify/schema", body, 200);
            assertTrue(
                    verifier.verifySignature(viaRest, AttestationContext.VERIFY).valid(), name);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            assertEquals(
                    0,
                    dev.proofline.cli.ProoflineCliAccess.run(
                            List.of(
                                    "verify",
                                    dev.proofline.attestor.Conformance.file(name)
                                            .toString(),
                                    "--data-dir",
                                    tmp.resolve("cli").toString()),
                            out));
            JsonNode viaCli = StrictJson.parse(out.toByteArray());
            for (String field : List.of(
                    "summary",
                    "result",
                    "task_id",
                    "agent_id",
                    "output_hash",
                    "schema_hash",
                    "rules_hash",
                    "request_hash",
                    "schema_compliance",
                    "integrity_checks",
                    "overall",
                    "errors",
                    "hints")) {
                assertEquals(viaCli.get(field), viaRest.get(field), name + " " + field);
            }
        }
        JsonNode alias = post(
                "/verify/deliverable",
                Files.readAllBytes(dev.proofline.attestor.Conformance.file("requests/invoice-final.json")),
                200);
        assertEquals("pass", alias.get("result").asString());
    }

    @Test
    @Order(5)
    void restFrontDoorRefusesInvalidRequestsBeforePublishingAndNeverEchoesThem() throws Exception {
        String secret = "s3cr3t-input-value";
        Map<String, String> cases = Map.of(
                "{\"task_id\":\"" + secret + "\",\"submitted_output\":{}}", "expected_schema",
                "{\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":\"" + secret
                                + "\",\"rules\":[{\"type\":\"" + secret + "\",\"field\":\"a\"}]}",
                        "rules[0].type",
                "{\"task_id\":\"t\",\"expected_schema\":{\"type\":\"" + secret + "\"},\"submitted_output\":1}",
                        "expected_schema.type",
                "{\"task_id\": " + secret, "body");
        long deadLettersBefore = PipelineHarness.readCommitted(
                        node.bootstrapServers(), "agent-outputs.dlq", 0, java.time.Duration.ZERO)
                .size();
        for (Map.Entry<String, String> c : cases.entrySet()) {
            JsonNode error = post("/verify/schema", c.getKey().getBytes(StandardCharsets.UTF_8), 422);
            assertEquals("invalid_request", error.get("code").asString());
            assertTrue(error.get("fields").toString().contains("\"" + c.getValue() + "\""), error.toString());
            assertTrue(!error.toString().contains(secret), "echoed: " + error);
        }
        byte[] oversize = ("{\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":\"" + "x".repeat(1024 * 1024)
                        + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        JsonNode tooLarge = post("/verify/schema", oversize, 413);
        assertEquals("payload_too_large", tooLarge.get("code").asString());
        assertTrue(tooLarge.get("message").asString().contains("1048576"), tooLarge.toString());
        assertEquals(
                deadLettersBefore,
                PipelineHarness.readCommitted(node.bootstrapServers(), "agent-outputs.dlq", 0, java.time.Duration.ZERO)
                        .size(),
                "refused requests were never published");
    }

    @Test
    @Order(6)
    void discoveryDocumentsAreServedAndTheAgentCardKeyVerifiesAFreshReceipt() throws Exception {
        JsonNode card = get("/.well-known/agent-card.json", 200);
        assertEquals(card, get("/.well-known/agent.json", 200));
        java.util.List<dev.proofline.attestor.PublishedKey> keys = new java.util.ArrayList<>();
        card.get("capabilities")
                .get("extensions")
                .get(0)
                .get("params")
                .get("publicKeys")
                .forEach(k -> keys.add(new dev.proofline.attestor.PublishedKey(
                        k.get("keyVersion").asString(),
                        k.get("algorithm").asString(),
                        k.get("publicKey").asString())));
        JsonNode fresh = post(
                "/verify/schema",
                Files.readAllBytes(dev.proofline.attestor.Conformance.file("requests/invoice-final.json")),
                200);
        assertTrue(
                new ReceiptVerifier(dev.proofline.attestor.TrustedKeys.of(keys))
                        .verifySignature(fresh, AttestationContext.VERIFY)
                        .valid(),
                "the published key verifies what was signed");
        assertEquals(
                node.httpUrl() + "/.well-known/agent-card.json",
                fresh.get("verify").get("public_key_url").asString());
        assertEquals("3.1.0", get("/openapi.json", 200).get("openapi").asString());
        assertEquals("ok", get("/health", 200).get("status").asString());
        assertEquals(
                node.httpUrl() + "/openapi.json",
                get("/.well-known/api-catalog", 200)
                        .get("linkset")
                        .get(0)
                        .get("service-desc")
                        .get(0)
                        .get("href")
                        .asString());
        java.net.http.HttpResponse<String> index = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.httpUrl() + "/"))
                                .header("Accept", "application/json")
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(
                node.httpUrl() + "/mcp",
                StrictJson.parse(index.body()).get("links").get("mcp").asString());
        java.net.http.HttpResponse<String> llms = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.httpUrl() + "/llms.txt"))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        assertTrue(llms.body().contains("/verify/schema") && llms.body().contains("payload_too_large"), llms.body());
    }

    private static int httpStatus(String path, String key) throws Exception {
        java.net.http.HttpRequest.Builder request =
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.httpUrl() + path));
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        return java.net.http.HttpClient.newHttpClient()
                .send(request.build(), java.net.http.HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    @Test
    @Order(7)
    void metricsAreServedInThePrometheusTextFormat() throws Exception {
        String metrics = TestNodes.metrics(node);
        java.util.regex.Matcher passes = java.util.regex.Pattern.compile(
                        "proofline_verifications_total\\{result=\"pass\"} ([0-9.E]+)")
                .matcher(metrics);
        assertTrue(
                passes.find(),
                metrics.lines().filter(l -> l.startsWith("proofline")).toList().toString());
        assertTrue(Double.parseDouble(passes.group(1)) >= 6000, "passes counted: " + passes.group(1));
        assertTrue(metrics.contains("proofline_dead_letters_total{code=\"invalid_request\"}"), "dead letters by code");
        assertTrue(metrics.contains("proofline_verification_duration_seconds_bucket"), "latency histogram");
        assertTrue(metrics.contains("records_lag"), "consumer lag from Kafka Streams' metrics");
    }

    @Test
    @Order(8)
    void theOfficialMcpClientListsAndCallsBothToolsAndAWrongOriginIsRefused() throws Exception {
        Assumptions.assumeTrue(NodeTools.available(), "SKIPPED: node and npm are not installed, so no MCP client ran");
        Path tools = NodeTools.install("@modelcontextprotocol/sdk@1.32.2");
        java.io.ByteArrayOutputStream issued = new java.io.ByteArrayOutputStream();
        assertEquals(
                0,
                dev.proofline.cli.ProoflineCliAccess.run(
                        List.of(
                                "caller",
                                "add",
                                "mcp-user",
                                "--bootstrap-servers",
                                node.bootstrapServers(),
                                "--data-dir",
                                tmp.resolve("node").toString()),
                        issued));
        String key = issued.toString(java.nio.charset.StandardCharsets.UTF_8).trim();
        // Not a test- agent: a test- receipt goes back to its caller only and is never indexed.
        Path draft = tmp.resolve("mcp-draft.json");
        java.nio.file.Files.writeString(
                draft,
                java.nio.file.Files.readString(dev.proofline.attestor.Conformance.file("requests/invoice-draft.json"))
                        .replace("test-seller-invoice-agent", "mcp-seller"));
        JsonNode result = StrictJson.parse(NodeTools.run(
                tools, "mcp-client-check.mjs", node.httpUrl() + "/mcp", draft.toString(), "agent-5", key));
        assertEquals(401, result.get("badKeyStatus").asInt(), "a bad key on /mcp is refused before any tool runs");
        assertEquals("Bearer realm=\"proofline\"", result.get("badKeyChallenge").asString());
        assertEquals(
                "[\"get_verification_record\",\"verify_schema\"]",
                result.get("tools").toString());

        ReceiptVerifier verifier = new ReceiptVerifier(KeyRing.openOrCreate(tmp.resolve("node/keys"), Clock.systemUTC())
                .trustedKeys());
        JsonNode receipt = StrictJson.parse(result.get("verified").asString());
        assertTrue(!result.get("verifiedIsError").asBoolean());
        assertTrue(verifier.verifySignature(receipt, AttestationContext.VERIFY).valid());
        // verify_schema recorded its caller: the key that called it reads the receipt, a stranger does not.
        String receiptPath = "/receipts/" + receipt.get("verification_id").asString();
        int withKey = 0;
        for (int i = 0; i < 150 && withKey != 200; i++) { // the index follows the receipts topic
            withKey = httpStatus(receiptPath, key);
            Thread.sleep(200);
        }
        assertEquals(200, withKey);
        assertEquals(404, httpStatus(receiptPath, null));
        assertEquals(
                List.of("consistency:sum_equals"),
                List.of(receipt.get("summary").get("blocking_checks").get(0).asString()));

        JsonNode viaMcp = StrictJson.parse(result.get("record").asString());
        JsonNode viaRest = get("/score/agent-5", 200);
        assertTrue(verifier.verifySignature(viaMcp, AttestationContext.SCORE).valid());
        assertEquals(viaRest.get("inputs"), viaMcp.get("inputs"));
        assertEquals(viaRest.get("trust_score"), viaMcp.get("trust_score"));

        assertTrue(result.get("invalidIsError").asBoolean());
        assertTrue(result.get("invalid").asString().startsWith("{"), "a §6 document, not: " + result.get("invalid"));
        JsonNode error = StrictJson.parse(result.get("invalid").asString());
        assertEquals("invalid_request", error.get("code").asString());
        assertEquals(422, error.get("status").asInt());
        assertEquals(403, result.get("wrongOriginStatus").asInt(), "a foreign Origin is refused");
        System.out.println("MCP: the official TypeScript client listed and called both tools; a wrong Origin got 403");
    }

    @Test
    @Order(9)
    void theOpenApiDocumentPassesAThirdPartyValidator() throws Exception {
        Assumptions.assumeTrue(
                NodeTools.available(), "SKIPPED: node and npm are not installed, so /openapi.json was not validated");
        Path tools = NodeTools.install("@apidevtools/swagger-parser@13.1.0");
        Path document = Files.writeString(
                tmp.resolve("openapi.json"), get("/openapi.json", 200).toString());
        assertEquals("valid Proofline 3.1.0", NodeTools.run(tools, "openapi-validate.mjs", document.toString()));
    }

    @Test
    @Order(9)
    void aClientGeneratedFromTheOpenApiDocumentTypeChecksACallAndItsAnswers() throws Exception {
        Assumptions.assumeTrue(
                NodeTools.available(),
                "SKIPPED: node and npm are not installed, so no TypeScript client was generated");
        Path tools = NodeTools.install("openapi-typescript@7.13.0", "typescript@5.9.3");
        Path document = Files.writeString(
                tmp.resolve("openapi.json"), get("/openapi.json", 200).toString());
        assertEquals("typed", NodeTools.run(tools, "openapi-typecheck.mjs", document.toString()));
    }

    @Test
    @Order(3)
    void receiptsVerifiedInThePastGiveTheDecayedScoreAndDailyWindowsOfTheirTime() throws Exception {
        // Receipts written straight to the receipts topic with past verification times, as a replay
        // or a late record would bring them: 200 passes 60 to 90 days ago, 10 failures yesterday
        // noon and 10 an hour ago (UTC).
        String agent = "decay-agent";
        Instant now = Instant.now();
        long day = java.time.Duration.ofDays(1).toMillis();
        List<Receipt> receipts = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            receipts.add(pastReceipt(agent, i, "pass", now.minusMillis(90 * day - i * (30 * day / 200))));
        }
        Instant yesterdayNoon =
                now.truncatedTo(java.time.temporal.ChronoUnit.DAYS).minus(java.time.Duration.ofHours(12));
        for (int i = 0; i < 10; i++) {
            receipts.add(pastReceipt(agent, 200 + i, "fail", yesterdayNoon.plusSeconds(i)));
            receipts.add(pastReceipt(
                    agent,
                    210 + i,
                    "fail",
                    now.minus(java.time.Duration.ofHours(1)).plusSeconds(i)));
        }
        AvroSerde<Receipt> serde =
                new AvroSerde<>(new RestSchemaRegistryClient(node.httpUrl()), Receipt.getClassSchema());
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<String, byte[]>(
                java.util.Map.of(
                        org.apache.kafka.clients.producer.ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        node.bootstrapServers()),
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            for (Receipt r : receipts) {
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                        Topics.DEFAULT_RECEIPTS, agent, serde.serializer().serialize(Topics.DEFAULT_RECEIPTS, r)));
            }
        }
        String asOf = now.toString();
        JsonNode score = null;
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            score = get("/score/" + agent + "?as_of=" + asOf, 200);
            if (score.path("inputs").path("total").asLong() == 220) {
                break;
            }
            Thread.sleep(200);
        }
        assertEquals(220, score.get("inputs").get("total").asLong(), score.toString());
        // Expected figures, computed here from the same times.
        double passed = 0;
        double failed = 0;
        for (Receipt r : receipts) {
            double weight = Math.pow(
                    0.5,
                    (now.toEpochMilli()
                                    - Instant.parse(r.getVerifiedAt().replace("+00:00", "Z"))
                                            .toEpochMilli())
                            / (30.0 * day));
            if (r.getResult().equals("pass")) {
                passed += weight;
            } else {
                failed += weight;
            }
        }
        assertEquals(
                dev.proofline.reputation.TrustScore.rounded(dev.proofline.reputation.TrustScore.of(passed, failed)),
                score.get("decayed_score").asDouble(),
                1e-6);
        assertEquals(passed + failed, score.get("decay").get("effective_n").asDouble(), 1e-5);
        assertTrue(score.get("decayed_score").asDouble() < 0.6, "recent failures weigh: " + score);
        assertTrue(score.get("trust_score").asDouble() > 0.85, "the lifetime score hardly moves: " + score);
        // Passes 60-90 days old are past the windows' retention and grace; the failures land in their days.
        boolean sameDay = now.minus(java.time.Duration.ofHours(1))
                .truncatedTo(java.time.temporal.ChronoUnit.DAYS)
                .equals(now.truncatedTo(java.time.temporal.ChronoUnit.DAYS));
        assertEquals(
                sameDay ? 10 : 0, score.get("windows").get("1d").get("failed").asInt(), score.toString());
        assertEquals(20, score.get("windows").get("7d").get("failed").asInt(), score.toString());
        assertEquals(0, score.get("windows").get("30d").get("passed").asInt(), score.toString());
        assertEquals(20, score.get("windows").get("30d").get("failed").asInt(), score.toString());
        assertEquals(
                422,
                get("/score/" + agent + "?as_of=2020-01-01T00:00:00Z", 422)
                        .get("status")
                        .asInt());
        assertEquals(
                422,
                get("/score/" + agent + "?as_of=yesterday", 422).get("status").asInt());
        // Years Java reads but RFC 3339 does not; the first two overflow epoch milliseconds.
        for (String far :
                new String[] {"-999999999-01-01T00:00:00Z", "%2B999999999-12-31T23:59:59Z", "%2B10000-01-01T00:00:00Z"
                }) {
            for (String path : new String[] {"/score/" + agent, "/score/nobody-yet", "/reputation/nobody-yet"}) {
                assertEquals(
                        "invalid_request",
                        get(path + "?as_of=" + far, 422).get("code").asString(),
                        path + " as of " + far);
            }
        }
    }

    @Test
    @Order(4)
    void aReplayUnderAStricterRuleFindsExactlyTheFlipsAndWritesNothingToKafka() throws Exception {
        // 120 requests three hours in the past, one a second, under rules v1 (line totals add up to
        // the total); every fifth fails v1 and every fortieth (from 13) is invalid. Rules v2 add a
        // bound total <= 700, so exactly the v1 passes with a total over 700 (i > 60) must flip.
        int n = 120;
        Instant base = Instant.now().minus(Duration.ofHours(3)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        Map<String, Long> validPerAgent = new java.util.TreeMap<>();
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<String, byte[]>(
                Map.of(
                        org.apache.kafka.clients.producer.ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        node.bootstrapServers()),
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            for (int i = 0; i < n; i++) {
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                        Topics.DEFAULT_INPUT, null, base.toEpochMilli() + 1000L * i, "replay-" + i, replayRequest(i)));
                if (i % 40 != 13) {
                    validPerAgent.merge("replay-agent-" + i % 3, 1L, Long::sum);
                }
            }
        }
        for (var agent : validPerAgent.entrySet()) { // every original receipt is on the receipts topic
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (get("/score/" + agent.getKey(), 200)
                                    .path("inputs")
                                    .path("total")
                                    .asLong()
                            < agent.getValue()
                    && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
        }
        Set<String> expectedFlips = new java.util.TreeSet<>();
        long newlyOverTheBound = 0;
        for (int i = 0; i < n; i++) {
            if (i % 40 != 13 && i > 60) {
                newlyOverTheBound++;
                if (i % 5 != 0) {
                    expectedFlips.add("replay-" + i);
                }
            }
        }
        Path rules = Files.writeString(tmp.resolve("rules-v2.json"), """
                {"rules": [{"type": "sum_equals", "field": "line_items[].line_total", "equals_field": "total"}],
                 "bounds": {"total": {"max": 700}}}""");
        Map<String, Long> before = endOffsets();
        Set<String> groupsBefore = groups();
        String to = base.plusSeconds(n).toString();

        JsonNode report = replay(List.of("--from", base.toString(), "--to", to, "--rules", rules.toString()), "one");
        JsonNode totals = report.get("totals");
        assertEquals(n, totals.get("requests").asInt(), report.toString());
        assertEquals(0, totals.get("missing").asInt(), "every request's original was found");
        assertEquals(0, totals.get("altered").asInt());
        assertEquals(expectedFlips.size(), totals.get("pass_to_fail").asInt());
        assertEquals(0, totals.get("fail_to_pass").asInt());
        assertEquals(3, totals.get("transitions").get("invalid_to_invalid").asInt(), "13, 53 and 93");
        Set<String> flipped = new java.util.TreeSet<>();
        for (JsonNode change : report.get("changes")) {
            if (change.get("original").asString().equals("pass")) {
                assertEquals("fail", change.get("candidate").asString());
                assertEquals(StrictJson.parse("[\"bounds:max\"]"), change.get("blocking_added"));
                flipped.add(change.get("task_id").asString());
            }
        }
        assertEquals(expectedFlips, flipped, "exactly the v1 passes over the new bound");
        assertEquals(
                newlyOverTheBound,
                report.get("rules").get("bounds:max").get("newly_blocking").asLong());
        long agentFlips = 0;
        for (JsonNode agent : report.get("agents")) {
            agentFlips += agent.get("pass_to_fail").asLong();
            assertTrue(agent.get("candidate").get("trust_score").asDouble()
                    <= agent.get("original").get("trust_score").asDouble());
        }
        assertEquals(expectedFlips.size(), agentFlips);
        System.out.print(Files.readString(tmp.resolve("replay-one").resolve("summary.txt")));

        // The same replay again: the same bytes.
        replay(List.of("--from", base.toString(), "--to", to, "--rules", rules.toString()), "two");
        for (String file : List.of("report.json", "summary.txt")) {
            assertEquals(
                    Files.readString(tmp.resolve("replay-one").resolve(file)),
                    Files.readString(tmp.resolve("replay-two").resolve(file)),
                    file);
        }
        // A narrower time range selects exactly its records: seconds 30 to 59.
        JsonNode narrow = replay(
                List.of(
                        "--from",
                        base.plusSeconds(30).toString(),
                        "--to",
                        Long.toString(base.plusSeconds(60).toEpochMilli()),
                        "--rules",
                        rules.toString()),
                "narrow");
        assertEquals(30, narrow.get("totals").get("requests").asInt());
        // Starting at the first offsets the full replay read gives the same verdicts.
        List<String> offsets = new java.util.ArrayList<>();
        report.get("range")
                .get("partitions")
                .forEach(p -> offsets.add(
                        p.get("partition").asInt() + ":" + p.get("first_offset").asLong()));
        JsonNode byOffsets = replay(
                List.of("--from", String.join(",", offsets), "--to", to, "--rules", rules.toString()), "offsets");
        assertEquals(report.get("totals"), byOffsets.get("totals"));
        assertEquals(report.get("changes"), byOffsets.get("changes"));

        assertEquals(before, endOffsets(), "no record was written to any live topic");
        assertEquals(groupsBefore, groups(), "no consumer group was made");
    }

    @Test
    @Order(5)
    void goVerifiesTheTransparencyLogsCheckpointsProofsAndTilesAndRefusesTamperedOnes() throws Exception {
        JsonNode log = get("/.well-known/agent-card.json", 200).get("transparency_log");
        assertEquals(
                java.net.URI.create(node.httpUrl()).getHost() + "/tlog",
                log.get("origin").asString(),
                "by default the origin is the log's URL prefix without its scheme (tlog-tiles)");
        java.net.http.HttpResponse<String> unpublished = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(
                                        java.net.URI.create(node.httpUrl() + "/tlog/tile/0/x999/999"))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(404, unpublished.statusCode());
        assertTrue(unpublished.body().contains("has not grown this far"), unpublished.body());
        assertEquals(
                Optional.of("no-cache"),
                unpublished.headers().firstValue("Cache-Control"),
                "a tile not yet published is not cached as missing");
        Optional<GoTlogVerifier> go = GoTlogVerifier.build(tmp.resolve("go"));
        Assumptions.assumeTrue(
                go.isPresent(),
                "SKIPPED: apt-get could not install golang-go and golang-golang-x-mod-dev, so Go's own sumdb"
                        + " code did not check the transparency log");
        String vkey = log.get("verifier_key").asString();
        NoteVerifier verifier = NoteVerifier.parse(vkey);
        assertEquals(log.get("origin").asString(), verifier.name());
        Path before = Files.writeString(tmp.resolve("checkpoint-before"), text("/tlog/checkpoint", 200));
        List<String> args = new java.util.ArrayList<>(
                List.of("-base", node.httpUrl(), "-vkey", vkey, "-previous", before.toString(), "-tamper"));
        String operator = "Bearer " + node.operatorToken().orElseThrow();
        int proved = 0;
        for (int i = 0; proved < 3; i++) {
            if (!TestRequests.isValid(i)) {
                continue;
            }
            JsonNode answer = StrictJson.parse(send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.httpUrl() + "/verify/schema"))
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(
                                    TestRequests.request("tlog-", i)))
                            .header("Content-Type", "application/json")
                            .header("Authorization", operator),
                    200));
            String id = answer.get("verification_id").asString();
            String receipt = send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.httpUrl() + "/receipts/" + id))
                            .header("Authorization", operator),
                    200);
            byte[] entry = dev.proofline.tlog.LogRecords.entry(receipt);
            String proof = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (proof == null && System.nanoTime() < deadline) { // a checkpoint is signed every second
                java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
                        .send(
                                java.net.http.HttpRequest.newBuilder(
                                                java.net.URI.create(node.httpUrl() + "/receipts/" + id + "/proof"))
                                        .header("Authorization", operator)
                                        .build(),
                                java.net.http.HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    proof = response.body();
                } else {
                    assertEquals(503, response.statusCode(), response.body());
                    assertTrue(response.body().contains("proof_pending"), response.body());
                    Thread.sleep(200);
                }
            }
            assertTrue(proof != null, "no proof for " + id);
            assertTrue(dev.proofline.tlog.InclusionProof.parse(proof)
                            .verify(entry, verifier)
                            .size()
                    > 0);
            Path file = Files.writeString(tmp.resolve("proof-" + proved), proof);
            if (proved == 0) { // the command line checks it too, from a receipt saved pretty-printed
                Path saved =
                        Files.writeString(tmp.resolve("receipt-0.json"), StrictJson.pretty(StrictJson.parse(receipt)));
                List<String> verify = List.of(
                        "receipt-verify", saved.toString(), "--agent-card", node.httpUrl(), "--proof", file.toString());
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                assertEquals(
                        0, dev.proofline.cli.ProoflineCli.run(verify, new java.io.PrintStream(out, true), System.err));
                assertTrue(
                        out.toString().startsWith("valid\nin the transparency log " + verifier.name()), out.toString());
                Path moved =
                        Files.writeString(tmp.resolve("proof-moved"), proof.replaceFirst("index (\\d+)", "index 0"));
                out.reset();
                assertEquals(
                        1,
                        dev.proofline.cli.ProoflineCli.run(
                                List.of(
                                        "receipt-verify",
                                        saved.toString(),
                                        "--agent-card",
                                        node.httpUrl(),
                                        "--proof",
                                        moved.toString()),
                                new java.io.PrintStream(out, true),
                                System.err));
                assertTrue(out.toString().startsWith("invalid: not_in_log"), out.toString());
            }
            args.addAll(List.of(
                    "-proof",
                    file.toString(),
                    "-digest",
                    java.util.HexFormat.of().formatHex(entry)));
            proved++;
        }
        // Not a tile's path at all (a partial tile is 1 to 255 wide; groups of three digits): 400, not
        // the 404 of a tile that may yet be published.
        for (String malformed :
                List.of("0/001.p/256", "0/001.p/007", "0/1234", "0/x000/001", "64/000", "entries/000.p/0")) {
            java.net.http.HttpResponse<String> refused = java.net.http.HttpClient.newHttpClient()
                    .send(
                            java.net.http.HttpRequest.newBuilder(
                                            java.net.URI.create(node.httpUrl() + "/tlog/tile/" + malformed))
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(400, refused.statusCode(), malformed + ": " + refused.body());
            assertEquals(
                    "invalid_request",
                    StrictJson.parse(refused.body()).get("code").asString(),
                    malformed);
        }
        GoTlogVerifier.Run run = go.get().check(args);
        System.out.print(run.output());
        assertEquals(0, run.exit(), run.output());
        assertFalse(run.output().contains("FAIL"), run.output());
        for (String expected : List.of(
                "ok: rebuilt", "consistent with", "ok: proof for entry", "tampered", "tampered level-0 tile refused")) {
            assertTrue(run.output().contains(expected), expected + " in:\n" + run.output());
        }
    }

    private static String text(String path, int expectedStatus) throws Exception {
        return send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.httpUrl() + path)), expectedStatus);
    }

    private static String send(java.net.http.HttpRequest.Builder request, int expectedStatus) throws Exception {
        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
                .send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(expectedStatus, response.statusCode(), response.body());
        return response.body();
    }

    private static byte[] replayRequest(int i) {
        if (i % 40 == 13) {
            return ("{\"task_id\":\"replay-" + i + "\",\"submitted_output\":{}}").getBytes(StandardCharsets.UTF_8);
        }
        long total = 100 + 10L * i;
        long first = i % 5 == 0 ? total - 1 : total / 2;
        return ("""
                        {"task_id":"replay-%d","agent_id":"replay-agent-%d",
                         "expected_schema":{"type":"object","required":["total"]},
                         "submitted_output":{"total":%d,"line_items":[{"line_total":%d},{"line_total":%d}]},
                         "rules":[{"type":"sum_equals","field":"line_items[].line_total","equals_field":"total"}],
                         "enforce_rules":true}""".formatted(i, i % 3, total, first, total - total / 2)).getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode replay(List<String> range, String name) throws Exception {
        Path out = tmp.resolve("replay-" + name);
        List<String> args = new java.util.ArrayList<>(List.of("replay"));
        args.addAll(range);
        args.addAll(List.of(
                "--out",
                out.toString(),
                "--url",
                node.httpUrl(),
                "--bootstrap-servers",
                node.bootstrapServers(),
                "--data-dir",
                tmp.resolve("node").toString()));
        java.io.ByteArrayOutputStream stdout = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream stderr = new java.io.ByteArrayOutputStream();
        int exit = dev.proofline.cli.ProoflineCli.run(
                args, new java.io.PrintStream(stdout, true), new java.io.PrintStream(stderr, true));
        assertEquals(0, exit, stderr.toString());
        assertEquals(Files.readString(out.resolve("summary.txt")), stdout.toString());
        return StrictJson.parse(Files.readString(out.resolve("report.json")));
    }

    private static Map<String, Long> endOffsets() throws Exception {
        try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.of(
                org.apache.kafka.clients.admin.AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrapServers()))) {
            Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest =
                    new java.util.HashMap<>();
            for (var d : admin.describeTopics(
                            List.of(Topics.DEFAULT_INPUT, Topics.DEFAULT_RECEIPTS, Topics.DEFAULT_DEAD_LETTER))
                    .allTopicNames()
                    .get()
                    .values()) {
                d.partitions()
                        .forEach(p -> latest.put(
                                new org.apache.kafka.common.TopicPartition(d.name(), p.partition()),
                                org.apache.kafka.clients.admin.OffsetSpec.latest()));
            }
            Map<String, Long> ends = new java.util.TreeMap<>();
            admin.listOffsets(latest).all().get().forEach((tp, info) -> ends.put(tp.toString(), info.offset()));
            return ends;
        }
    }

    private static Set<String> groups() throws Exception {
        try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.of(
                org.apache.kafka.clients.admin.AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrapServers()))) {
            Set<String> ids = new java.util.TreeSet<>();
            admin.listGroups().all().get().forEach(g -> ids.add(g.groupId()));
            return ids;
        }
    }

    private static Receipt pastReceipt(String agent, int i, String result, Instant verifiedAt) {
        return Receipt.newBuilder()
                .setVerificationId(java.util
                        .UUID
                        .nameUUIDFromBytes(("decay-" + i).getBytes())
                        .toString())
                .setTaskId("decay-" + i)
                .setAgentId(agent)
                .setResult(result)
                .setVerifiedAt(dev.proofline.engine.ReceiptAssembler.timestamp(verifiedAt))
                .setKeyVersion("v1")
                .setOutputHash("o")
                .setSchemaHash("s")
                .setRulesHash("r")
                .setCorrelationId(null)
                .setSignedJson("{}")
                .build();
    }

    private static JsonNode post(String path, byte[] body, int expectedStatus) throws Exception {
        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.httpUrl() + path))
                                .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(body))
                                .header("Content-Type", "application/json")
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(expectedStatus, response.statusCode(), path + ": " + response.body());
        return StrictJson.parse(response.body());
    }

    private static JsonNode get(String path, int expectedStatus) throws Exception {
        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.httpUrl() + path))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(expectedStatus, response.statusCode(), path + ": " + response.body());
        return StrictJson.parse(response.body());
    }

    /**
     * kafkajs can stamp a record with a negative time and the broker takes it; Kafka Streams' own
     * default would fail a stream thread on each, again and again. Each is verified like any other.
     */
    @Test
    @Order(10)
    void requestsStampedWithNegativeTimesByKafkajsEachGetTheirReceipt() throws Exception {
        Assumptions.assumeTrue(
                NodeTools.available(), "SKIPPED: node and npm are not installed, so kafkajs wrote no records");
        Path tools = NodeTools.install("kafkajs@2.2.4", "@kafkajs/confluent-schema-registry@4.1.0");
        Set<String> ids = new HashSet<>(NodeTools.run(
                        tools,
                        "kafkajs-negative-timestamps.js",
                        node.bootstrapServers(),
                        Topics.DEFAULT_INPUT,
                        dev.proofline.attestor.Conformance.file("requests/invoice-final.json")
                                .toString(),
                        "negative-time")
                .lines()
                .toList());
        assertEquals(3, ids.size(), ids.toString());
        Map<String, Object> config = Map.of(
                org.apache.kafka.clients.consumer.ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                node.bootstrapServers(),
                org.apache.kafka.clients.consumer.ConsumerConfig.GROUP_ID_CONFIG,
                "negative-time-" + System.nanoTime(),
                org.apache.kafka.clients.consumer.ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                org.apache.kafka.clients.consumer.ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed");
        java.util.Map<String, String> outcomes = new java.util.HashMap<>();
        try (var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]>(
                config,
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            consumer.subscribe(List.of(Topics.DEFAULT_RECEIPTS, Topics.DEFAULT_DEAD_LETTER));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (outcomes.size() < ids.size() && System.nanoTime() < deadline) {
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    var id = record.headers().lastHeader(Headers.CORRELATION_ID);
                    String name = id == null ? null : new String(id.value(), StandardCharsets.UTF_8);
                    if (ids.contains(name)) {
                        outcomes.merge(name, record.topic() + " at " + record.timestamp(), (a, b) -> a + ", " + b);
                    }
                }
            }
        }
        for (String id : ids) {
            String outcome = outcomes.get(id);
            assertTrue(outcome != null && outcome.startsWith(Topics.DEFAULT_RECEIPTS + " at "), id + ": " + outcome);
            assertFalse(outcome.contains(", "), id + " answered twice: " + outcome);
            assertTrue(Long.parseLong(outcome.substring(outcome.lastIndexOf(' ') + 1)) >= 0, id + ": " + outcome);
        }
    }

    @Test
    @Order(1)
    void tenThousandMixedRequestsGiveExactlyOneReceiptOrDeadLetterEach() throws Exception {
        PipelineHarness.produce(node.bootstrapServers(), 0, REQUESTS);
        int valid = PipelineHarness.count(0, REQUESTS, TestRequests::isValid);
        int invalid = REQUESTS - valid;
        assertTrue(invalid >= REQUESTS * 0.05, "at least 5% invalid");

        List<ConsumerRecord<String, byte[]>> receipts =
                PipelineHarness.readCommitted(node.bootstrapServers(), "receipts", valid, Duration.ofSeconds(180));
        KeyRing keys = KeyRing.openOrCreate(tmp.resolve("node/keys"), Clock.systemUTC());
        Map<String, List<Receipt>> byTask =
                PipelineHarness.verifiedReceiptsByTask(receipts, node.httpUrl(), keys.trustedKeys());
        assertEquals(valid, receipts.size(), "one receipt per valid request");
        for (int i = 0; i < REQUESTS; i++) {
            if (TestRequests.isValid(i)) {
                List<Receipt> forTask = byTask.get(TestRequests.taskId(i));
                assertTrue(forTask != null && forTask.size() == 1, TestRequests.taskId(i) + ": " + forTask);
                assertEquals(i % 3 == 0 ? "fail" : "pass", forTask.get(0).getResult());
            }
        }
        Set<String> ids = new HashSet<>();
        byTask.values().forEach(list -> list.forEach(r -> ids.add(r.getVerificationId())));
        assertEquals(valid, ids.size(), "verification ids are unique");

        List<ConsumerRecord<String, byte[]>> deadLetters = PipelineHarness.readCommitted(
                node.bootstrapServers(), "agent-outputs.dlq", invalid, Duration.ofSeconds(60));
        assertEquals(invalid, deadLetters.size(), "one dead letter per invalid request");
        for (ConsumerRecord<String, byte[]> dead : deadLetters) {
            assertEquals("invalid_request", PipelineHarness.header(dead, Headers.ERROR_CODE));
            assertEquals("agent-outputs", PipelineHarness.header(dead, Headers.SOURCE_TOPIC));
            assertEquals(
                    "invalid_request",
                    StrictJson.parse(dead.value()).get("code").asString());
        }
    }
}
