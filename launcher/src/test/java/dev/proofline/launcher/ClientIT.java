package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.SigningKey;
import dev.proofline.attestor.TrustedKeys;
import dev.proofline.client.AgentCardKeys;
import dev.proofline.client.InvalidReceiptException;
import dev.proofline.client.ProoflineClient;
import dev.proofline.client.ProoflineException;
import dev.proofline.client.VerifiedReceipt;
import dev.proofline.client.VerifiedReceiptStream;
import dev.proofline.contract.Topics;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.RestSchemaRegistryClient;
import dev.proofline.schemas.avro.Receipt;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java SDK against a running Proofline: over Kafka and over REST, and as a stream of verified receipts. */
class ClientIT {
    @TempDir
    static Path tmp;

    static TestKafka kafka;
    static ProoflineNode node;

    @BeforeAll
    static void start() throws Exception {
        kafka = TestKafka.start(tmp.resolve("broker"));
        node = TestNodes.start(kafka.bootstrapServers(), tmp);
    }

    @AfterAll
    static void stop() {
        node.close();
        kafka.close();
    }

    private static String request(String name) throws Exception {
        return Files.readString(Conformance.file(name));
    }

    @Test
    void publishAwaitAndVerifyOverKafkaAndOverRest() throws Exception {
        try (ProoflineClient overKafka = ProoflineClient.overKafka(node.bootstrapServers(), node.httpUrl());
                ProoflineClient overRest = ProoflineClient.overRest(node.httpUrl())) {
            for (ProoflineClient client : List.of(overKafka, overRest)) {
                VerifiedReceipt draft =
                        client.verify(request("requests/invoice-draft.json")).get(30, TimeUnit.SECONDS);
                assertEquals("fail", draft.result());
                assertEquals("invoice-7731-draft", draft.taskId());
                VerifiedReceipt fin =
                        client.verify(request("requests/invoice-final.json")).get(30, TimeUnit.SECONDS);
                assertTrue(fin.passed());
                assertEquals(
                        fin.verificationId(),
                        client.verifyOffline(fin.signedJson()).verificationId());
                assertEquals(
                        fin.verificationId(),
                        client.verifyOffline(fin.signedJson(), request("requests/invoice-final.json"))
                                .verificationId());
                InvalidReceiptException otherData = assertThrows(
                        InvalidReceiptException.class,
                        () -> client.verifyOffline(fin.signedJson(), request("requests/invoice-draft.json")));
                assertTrue(otherData.getMessage().contains("differs"), otherData.getMessage());
            }
        }
    }

    /**
     * Keys pinned by the caller are the only ones a receipt is checked against: the deployment's own
     * key passes, and a client pinned to another key refuses the same genuine receipt.
     */
    @Test
    void pinnedKeysAreTheOnlyKeysTrusted() throws Exception {
        String version;
        try (ProoflineClient reader = ProoflineClient.overRest(node.httpUrl())) {
            version = reader.verify(request("requests/invoice-final.json"))
                    .get(30, TimeUnit.SECONDS)
                    .json()
                    .at("/attestation/key_version")
                    .asString();
        }
        // The deployment's key, had another way than through the client (here, read once from its card).
        TrustedKeys deployment =
                dev.proofline.client.AgentCardKeys.of(node.httpUrl()).forVersion(version);
        TrustedKeys stranger = TrustedKeys.of(List.of(
                SigningKey.generate(version, new java.security.SecureRandom()).published()));
        try (ProoflineClient pinned = ProoflineClient.builder()
                        .baseUrl(node.httpUrl())
                        .trustedKeys(deployment)
                        .build();
                ProoflineClient pinnedElsewhere = ProoflineClient.builder()
                        .baseUrl(node.httpUrl())
                        .trustedKeys(stranger)
                        .build()) {
            VerifiedReceipt receipt =
                    pinned.verify(request("requests/invoice-final.json")).get(30, TimeUnit.SECONDS);
            assertTrue(receipt.passed());
            ExecutionException refused = assertThrows(
                    ExecutionException.class,
                    () -> pinnedElsewhere
                            .verify(request("requests/invoice-final.json"))
                            .get(30, TimeUnit.SECONDS));
            assertTrue(refused.getCause() instanceof InvalidReceiptException, String.valueOf(refused.getCause()));
            assertThrows(InvalidReceiptException.class, () -> pinnedElsewhere.verifyOffline(receipt.signedJson()));
        }
    }

    @Test
    void theBuilderReachesADeploymentWithRenamedTopicsAndTypesItsRefusals() throws Exception {
        Topics renamed = new Topics("team-a.requests", "team-a.receipts", "team-a.dlq", "team-a.scores");
        Map<String, String> settings = Map.of(
                "application.id",
                "renamed-topics",
                "topics.input",
                renamed.input(),
                "topics.receipts",
                renamed.receipts(),
                "topics.dead.letter",
                renamed.deadLetter(),
                "topics.scores",
                renamed.scores());
        java.util.Properties kafkaProperties = new java.util.Properties();
        kafkaProperties.setProperty("bootstrap.servers", kafka.bootstrapServers());
        kafkaProperties.setProperty("client.id", "sdk-builder-test"); // any client setting passes through
        try (ProoflineNode teamA = TestNodes.start(kafka.bootstrapServers(), tmp.resolve("team-a"), settings);
                ProoflineClient client = ProoflineClient.builder()
                        .baseUrl(teamA.httpUrl())
                        .kafka(kafkaProperties)
                        .topics(renamed)
                        .build()) {
            VerifiedReceipt fin =
                    client.verify(request("requests/invoice-final.json")).get(30, TimeUnit.SECONDS);
            assertTrue(fin.passed());
            ExecutionException refused = assertThrows(
                    ExecutionException.class,
                    () -> client.verify("{\"task_id\": 7}").get(30, TimeUnit.SECONDS));
            ProoflineException error = assertInstanceOf(ProoflineException.class, refused.getCause());
            assertEquals(java.util.Optional.of(dev.proofline.contract.ErrorCode.INVALID_REQUEST), error.errorCode());

            // The CLI reaches it too, given the deployment's settings as `up` takes them.
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            int exit = dev.proofline.cli.ProoflineCliAccess.run(
                    List.of(
                            "publish",
                            Conformance.file("requests/invoice-final.json").toString(),
                            "--url",
                            teamA.httpUrl(),
                            "--bootstrap-servers",
                            kafka.bootstrapServers(),
                            "--topics.input",
                            renamed.input(),
                            "--topics.receipts",
                            renamed.receipts(),
                            "--topics.dead.letter",
                            renamed.deadLetter()),
                    out);
            String printed = out.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(0, exit, printed);
            assertTrue(
                    printed.lines()
                            .anyMatch(l -> l.trim().split("\\s+")[0].equals("total")
                                    && l.trim().split("\\s+")[1].equals("1")),
                    printed);
        }
        try (var admin =
                org.apache.kafka.clients.admin.Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            assertTrue(
                    admin.listTopics()
                            .names()
                            .get()
                            .containsAll(List.of(
                                    renamed.input(), renamed.receipts(), renamed.deadLetter(), renamed.scores())),
                    "the node created the renamed topics");
        }
    }

    /**
     * Over Kafka, a receipt is decoded through the schema registry. One that sends its headers and
     * then nothing: the caller still hears "timeout" within the client's timeout, and the check runs
     * off the reply reader's thread, where it held every other caller's reply behind it.
     */
    @Test
    void aStalledRegistryEndsInTheClientsTimeoutNotAHang() throws Exception {
        com.sun.net.httpserver.HttpServer stalled =
                com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        stalled.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        stalled.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, 1000);
            exchange.getResponseBody().flush();
            try {
                release.await(120, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        stalled.start();
        try (ProoflineClient client = ProoflineClient.builder()
                .baseUrl(node.httpUrl())
                .kafka(Map.of("bootstrap.servers", node.bootstrapServers()))
                .schemaRegistryUrl("http://127.0.0.1:" + stalled.getAddress().getPort())
                .timeout(java.time.Duration.ofSeconds(8))
                .build()) {
            // The reply comes within the 8 s; the registry never finishes: the old code waited on it.
            ExecutionException failed = assertThrows(
                    ExecutionException.class,
                    () -> client.verify(request("requests/invoice-final.json")).get(30, TimeUnit.SECONDS));
            ProoflineException error = assertInstanceOf(ProoflineException.class, failed.getCause());
            assertEquals("timeout", error.code(), error.getMessage());
        } finally {
            release.countDown();
            stalled.stop(0);
        }
    }

    @Test
    void scoreCommandPrintsTheSignedScoreAndItsVerifiedSignature() throws Exception {
        String withAgent =
                request("requests/invoice-final.json").replace("test-seller-invoice-agent", "cli-score-agent");
        try (ProoflineClient client = ProoflineClient.overRest(node.httpUrl())) {
            client.verify(withAgent).get(30, TimeUnit.SECONDS);
        }
        String printed = "";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!printed.contains("\"total\" : 1") && System.nanoTime() < deadline) { // the score follows the receipt
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            assertEquals(
                    0,
                    dev.proofline.cli.ProoflineCliAccess.run(
                            List.of("score", "cli-score-agent", "--url", node.httpUrl()), out));
            printed = out.toString(java.nio.charset.StandardCharsets.UTF_8);
            Thread.sleep(200);
        }
        assertTrue(printed.contains("\"total\" : 1"), printed);
        assertTrue(printed.trim().endsWith("signature: valid"), printed);

        // A server answering every score with this agent's genuine, signed one: asked for another
        // agent, the command says the score is not that agent's, and fails.
        com.sun.net.httpserver.HttpServer swapper =
                com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        swapper.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath().startsWith("/score/")
                    ? "/score/cli-score-agent"
                    : exchange.getRequestURI().getPath();
            try {
                java.net.http.HttpResponse<byte[]> real = java.net.http.HttpClient.newHttpClient()
                        .send(
                                java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.httpUrl() + path))
                                        .build(),
                                java.net.http.HttpResponse.BodyHandlers.ofByteArray());
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(real.statusCode(), real.body().length);
                exchange.getResponseBody().write(real.body());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                exchange.close();
            }
        });
        swapper.start();
        try {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            int exit = dev.proofline.cli.ProoflineCliAccess.run(
                    List.of(
                            "score",
                            "someone-else",
                            "--url",
                            "http://127.0.0.1:" + swapper.getAddress().getPort()),
                    out);
            String swapped = out.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(swapped.trim().endsWith("signature: valid"), "a genuine score, signed: " + swapped);
            assertEquals(1, exit, "but of another agent");
        } finally {
            swapper.stop(0);
        }
    }

    @Test
    void receiptVerifyChecksAReceiptAgainstTheDeploymentsAgentCard() throws Exception {
        VerifiedReceipt receipt;
        try (ProoflineClient client = ProoflineClient.overRest(node.httpUrl())) {
            receipt = client.verify(request("requests/invoice-final.json")).get(30, TimeUnit.SECONDS);
        }
        Path good = tmp.resolve("agent-card-receipt.json");
        Files.writeString(good, receipt.signedJson());
        Path tampered = tmp.resolve("agent-card-receipt-tampered.json");
        Files.writeString(tampered, receipt.signedJson().replace("\"result\":\"pass\"", "\"result\":\"fail\""));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        assertEquals(
                0,
                dev.proofline.cli.ProoflineCliAccess.run(
                        List.of(
                                "receipt-verify",
                                good.toString(),
                                "--agent-card",
                                node.httpUrl() + "/.well-known/agent-card.json", // as public_key_url names it
                                "--request",
                                Conformance.file("requests/invoice-final.json").toString()),
                        out));
        assertEquals(
                "valid", out.toString(java.nio.charset.StandardCharsets.UTF_8).trim());
        out.reset();
        assertEquals(
                1,
                dev.proofline.cli.ProoflineCliAccess.run(
                        List.of("receipt-verify", tampered.toString(), "--agent-card", node.httpUrl()), out));
        assertTrue(out.toString(java.nio.charset.StandardCharsets.UTF_8).startsWith("invalid"), out.toString());
    }

    @Test
    void anyReceiptCanBeFetchedByItsVerificationIdExactlyAsSigned() throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        String operator = node.operatorToken().orElseThrow();
        try (ProoflineClient overKafka = ProoflineClient.overKafka(node.bootstrapServers(), node.httpUrl());
                ProoflineClient overRest = ProoflineClient.overRest(node.httpUrl())) {
            // Over REST this test is the (anonymous, loopback) submitter; over Kafka only an operator reads it.
            VerifiedReceipt submitted = overRest.verify(request("requests/invoice-final.json")
                            .replace("test-seller-invoice-agent", "client-it-seller"))
                    .get(30, TimeUnit.SECONDS);
            VerifiedReceipt produced = overKafka
                    .verify(request("requests/invoice-draft.json")
                            .replace("test-seller-invoice-agent", "client-it-kafka"))
                    .get(30, TimeUnit.SECONDS);
            for (var fetch : List.of(
                    java.util.Map.entry(submitted, java.util.Optional.<String>empty()),
                    java.util.Map.entry(produced, java.util.Optional.of(operator)))) {
                VerifiedReceipt receipt = fetch.getKey();
                java.net.http.HttpResponse<String> fetched = null;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (System.nanoTime() < deadline) { // the index follows the receipt through the reputation topology
                    var get = java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create(node.httpUrl() + "/receipts/" + receipt.verificationId()));
                    fetch.getValue().ifPresent(token -> get.header("Authorization", "Bearer " + token));
                    fetched = http.send(get.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
                    if (fetched.statusCode() == 200) {
                        break;
                    }
                    Thread.sleep(200);
                }
                assertEquals(200, fetched.statusCode(), fetched.body());
                assertEquals(receipt.signedJson(), fetched.body(), "byte for byte as signed");
            }
            // A test- receipt goes back to its caller only: it is never indexed.
            VerifiedReceipt test =
                    overRest.verify(request("requests/invoice-final.json")).get(30, TimeUnit.SECONDS);
            Thread.sleep(1500);
            var testFetch = http.send(
                    java.net.http.HttpRequest.newBuilder(
                                    java.net.URI.create(node.httpUrl() + "/receipts/" + test.verificationId()))
                            .header("Authorization", "Bearer " + operator)
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(404, testFetch.statusCode(), testFetch.body());
        }
        java.net.http.HttpResponse<String> missing = http.send(
                java.net.http.HttpRequest.newBuilder(
                                java.net.URI.create(node.httpUrl() + "/receipts/00000000-0000-3000-8000-000000000000"))
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(404, missing.statusCode());
        var error = dev.proofline.attestor.StrictJson.parse(missing.body());
        assertEquals("receipt_not_found", error.get("code").asString());
        assertTrue(error.get("retryable").asBoolean());
        assertEquals("2", missing.headers().firstValue("Retry-After").orElse(""));
    }

    @Test
    void receiptsFollowPrintsVerifiedReceiptsOfOneAgent() throws Exception {
        String mine = request("requests/invoice-final.json").replace("test-seller-invoice-agent", "followed-agent");
        try (ProoflineClient client = ProoflineClient.overRest(node.httpUrl())) {
            client.verify(mine).get(30, TimeUnit.SECONDS);
            client.verify(request("requests/invoice-draft.json")).get(30, TimeUnit.SECONDS); // another agent
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        // --follow runs until --max receipts: bound it, so a regression fails instead of hanging the build
        int exit = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                java.time.Duration.ofSeconds(60),
                () -> dev.proofline.cli.ProoflineCliAccess.run(
                        List.of(
                                "receipts",
                                "--follow",
                                "--from-beginning",
                                "--agent",
                                "followed-agent",
                                "--max",
                                "1",
                                "--bootstrap-servers",
                                node.bootstrapServers(),
                                "--url",
                                node.httpUrl()),
                        out));
        String printed = out.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, exit);
        assertEquals(1, printed.lines().count(), printed);
        assertTrue(printed.contains("pass  followed-agent  invoice-7731-final  signature valid"), printed);

        out.reset(); // --max is exact even when more receipts arrive in the same batch
        assertEquals(
                0,
                org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                        java.time.Duration.ofSeconds(60),
                        () -> dev.proofline.cli.ProoflineCliAccess.run(
                                List.of(
                                        "receipts",
                                        "--follow",
                                        "--from-beginning",
                                        "--max",
                                        "2",
                                        "--bootstrap-servers",
                                        node.bootstrapServers(),
                                        "--url",
                                        node.httpUrl()),
                                out)));
        assertEquals(
                2, out.toString(java.nio.charset.StandardCharsets.UTF_8).lines().count(), out.toString());
    }

    @Test
    void refusalsArriveAsProoflineExceptionsOverBothPaths() throws Exception {
        String invalid =
                "{\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"rules\":[{\"type\":\"mean\",\"field\":\"a\"}]}";
        try (ProoflineClient overKafka = ProoflineClient.overKafka(node.bootstrapServers(), node.httpUrl());
                ProoflineClient overRest = ProoflineClient.overRest(node.httpUrl())) {
            for (ProoflineClient client : List.of(overKafka, overRest)) {
                ExecutionException e = assertThrows(
                        ExecutionException.class, () -> client.verify(invalid).get(30, TimeUnit.SECONDS));
                ProoflineException refused = assertInstanceOf(ProoflineException.class, e.getCause());
                assertEquals("invalid_request", refused.code());
                assertEquals(422, refused.status());
                assertTrue(refused.document().contains("rules[0].type"), refused.document());
            }
        }
    }

    @Test
    void aReceiptWithOneByteChangedIsReportedInvalidNotDelivered() throws Exception {
        List<VerifiedReceipt> delivered = new CopyOnWriteArrayList<>();
        List<InvalidReceiptException> reported = new CopyOnWriteArrayList<>();
        RestSchemaRegistryClient registry = new RestSchemaRegistryClient(node.httpUrl());
        try (VerifiedReceiptStream stream = new VerifiedReceiptStream(
                        Map.of("bootstrap.servers", node.bootstrapServers()),
                        Topics.DEFAULT_RECEIPTS,
                        null,
                        registry,
                        AgentCardKeys.of(node.httpUrl()),
                        false,
                        new VerifiedReceiptStream.Listener() {
                            public void onReceipt(VerifiedReceipt receipt, String correlationId) {
                                delivered.add(receipt);
                            }

                            public void onInvalid(InvalidReceiptException problem, String correlationId) {
                                reported.add(problem);
                            }
                        });
                ProoflineClient client = ProoflineClient.overRest(node.httpUrl())) {
            VerifiedReceipt genuine =
                    client.verify(request("requests/invoice-final.json")).get(30, TimeUnit.SECONDS);
            String forged = genuine.signedJson().replace("\"result\":\"pass\"", "\"result\":\"fa1l\"");
            assertTrue(!forged.equals(genuine.signedJson()));
            Receipt record = Receipt.newBuilder()
                    .setVerificationId(genuine.verificationId())
                    .setTaskId("forged")
                    .setAgentId(genuine.agentId())
                    .setResult("pass")
                    .setVerifiedAt("x")
                    .setKeyVersion("x")
                    .setOutputHash("x")
                    .setSchemaHash("x")
                    .setRulesHash("x")
                    .setCorrelationId(null)
                    .setSignedJson(forged)
                    .build();
            AvroSerde<Receipt> serde = new AvroSerde<>(registry, Receipt.getClassSchema());
            try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                    Map.of("bootstrap.servers", node.bootstrapServers()),
                    new StringSerializer(),
                    new ByteArraySerializer())) {
                producer.send(new ProducerRecord<>(
                                Topics.DEFAULT_RECEIPTS, "forger", serde.serialize(Topics.DEFAULT_RECEIPTS, record)))
                        .get();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (reported.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(1, reported.size(), "the forged receipt is reported");
            assertTrue(
                    reported.get(0).getMessage().contains("signature does not match"),
                    reported.get(0).getMessage());
            assertTrue(
                    delivered.stream().noneMatch(r -> r.signedJson().equals(forged)), "and never delivered as valid");
            assertTrue(
                    delivered.stream().anyMatch(r -> r.verificationId().equals(genuine.verificationId())),
                    "the genuine receipt was delivered");
            assertThrows(InvalidReceiptException.class, () -> client.verifyOffline(forged));
        }
    }
}
