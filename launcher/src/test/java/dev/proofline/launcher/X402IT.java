package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.StrictJson;
import dev.proofline.client.AgentCardKeys;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The free allowance and x402 version 2 payments against the reference implementation, for real:
 * a local anvil chain with an EIP-3009 token, the reference facilitator and the reference clients
 * (HTTP and MCP), all from npm (launcher/src/test/x402). Balances are read from the chain. Skipped,
 * visibly, without node and npm.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class X402IT {
    private static final long PRICE = 10_000;
    private static final long SCORE_PRICE = 5_000;

    @TempDir
    static Path tmp;

    static X402Stack stack;
    static TestKafka kafka;
    static ProoflineNode node;
    static Path requestFile;
    static final HttpClient HTTP = HttpClient.newHttpClient();

    static Map<String, String> paymentSettings(int allowance) {
        Map<String, String> settings = new HashMap<>();
        settings.put("allowance.per.day", Integer.toString(allowance));
        settings.put("payment.facilitator.url", stack.facilitatorUrl);
        settings.put("payment.network", stack.chain.get("network").asString());
        settings.put("payment.asset", stack.chain.get("token").asString());
        settings.put("payment.asset.name", stack.chain.get("tokenName").asString());
        settings.put("payment.asset.version", stack.chain.get("tokenVersion").asString());
        settings.put("payment.pay.to", stack.chain.get("payTo").asString());
        settings.put("payment.price.verify", Long.toString(PRICE));
        settings.put("payment.price.score", Long.toString(SCORE_PRICE));
        return settings;
    }

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(NodeTools.available(), "SKIPPED: node and npm are not installed, so no x402 stack ran");
        stack = X402Stack.start();
        kafka = TestKafka.start(tmp.resolve("broker"));
        node = TestNodes.start(kafka.bootstrapServers(), tmp, paymentSettings(2));
        requestFile = tmp.resolve("request.json");
        Files.writeString(
                requestFile,
                Files.readString(Conformance.file("requests/invoice-final.json"))
                        .replace("test-seller-invoice-agent", "paying-seller"));
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    private static HttpResponse<String> post(String path, String body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.httpUrl() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode decoded(String base64) {
        return StrictJson.parse(Base64.getDecoder().decode(base64));
    }

    private static String payer() {
        return stack.chain.get("payer").get("address").asString();
    }

    private static String payTo() {
        return stack.chain.get("payTo").asString();
    }

    @Test
    @Order(1)
    void theAllowanceCountsDownThenTheAnswerIs402WithTheConfiguredTerms() throws Exception {
        String request = Files.readString(requestFile);
        String midnight = Instant.now()
                .truncatedTo(ChronoUnit.DAYS)
                .plus(1, ChronoUnit.DAYS)
                .toString();
        for (String left : List.of("1", "0")) {
            HttpResponse<String> served = post("/verify/schema", request, Map.of());
            assertEquals(200, served.statusCode(), served.body());
            assertEquals(
                    left,
                    served.headers().firstValue("Free-Allowance-Remaining").orElse(""));
            assertEquals(
                    "2", served.headers().firstValue("Free-Allowance-Limit").orElse(""));
            assertEquals(
                    midnight,
                    served.headers().firstValue("Free-Allowance-Resets").orElse(""));
        }
        // An invalid request is never pointed at payment.
        HttpResponse<String> invalid = post("/verify/schema", "{\"task_id\": \"t\"}", Map.of());
        assertEquals(422, invalid.statusCode(), invalid.body());

        HttpResponse<String> required = post("/verify/schema", request, Map.of());
        assertEquals(402, required.statusCode(), required.body());
        JsonNode body = StrictJson.parse(required.body());
        assertEquals("free_trial_exhausted", body.get("code").asString());
        assertFalse(body.get("free_trial").get("available").asBoolean());
        assertEquals(0, body.get("free_trial").get("remaining_calls_today").asInt());
        assertEquals("2", body.get("free_trial").get("calls_per_client_per_day").asString());
        JsonNode terms =
                decoded(required.headers().firstValue("Payment-Required").orElseThrow());
        assertEquals(2, terms.get("x402Version").asInt());
        assertEquals(
                node.httpUrl() + "/verify/schema",
                terms.get("resource").get("url").asString());
        JsonNode accepts = terms.get("accepts").get(0);
        assertEquals("exact", accepts.get("scheme").asString());
        assertEquals(
                stack.chain.get("network").asString(), accepts.get("network").asString());
        assertEquals(Long.toString(PRICE), accepts.get("amount").asString());
        assertEquals(stack.chain.get("token").asString(), accepts.get("asset").asString());
        assertEquals(payTo(), accepts.get("payTo").asString());
        assertEquals("USDC", accepts.get("extra").get("name").asString());

        HttpResponse<String> probe = post("/verify/schema", "", Map.of());
        assertEquals(402, probe.statusCode(), "an empty POST is x402's discovery probe");
        HttpResponse<String> malformed = post("/verify/schema", request, Map.of("Payment-Signature", "not base64!"));
        assertEquals(400, malformed.statusCode());
        assertEquals(
                "payment_malformed",
                StrictJson.parse(malformed.body()).get("code").asString());

        JsonNode wellKnown = StrictJson.parse(HTTP.send(
                        HttpRequest.newBuilder(URI.create(node.httpUrl() + "/.well-known/x402"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body());
        assertEquals(2, wellKnown.get("x402Version").asInt());
        assertEquals(accepts, wellKnown.get("resources").get(0).get("accepts").get(0));
        String llms = HTTP.send(
                        HttpRequest.newBuilder(URI.create(node.httpUrl() + "/llms.txt"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        assertTrue(llms.contains("## Free allowance") && llms.contains("2 free verifications a day"), llms);
        assertTrue(llms.contains("## Payment errors") && llms.contains("payment_replayed"), llms);
    }

    @Test
    @Order(2)
    void theReferenceClientPaysGetsAVerifiableReceiptAndCannotReplayThePayment() throws Exception {
        long payerBefore = stack.balance(payer());
        long payToBefore = stack.balance(payTo());
        JsonNode paid = payForVerification(node, "--print-signature");
        assertEquals(200, paid.get("status").asInt(), paid.toString());
        assertTrue(paid.get("paymentResponse").get("success").asBoolean(), paid.toString());
        JsonNode receipt = paid.get("body");
        ReceiptVerifier verifier = new ReceiptVerifier(AgentCardKeys.of(node.httpUrl())
                .forVersion(receipt.get("attestation").get("key_version").asString()));
        assertTrue(verifier.verifySignature(receipt, AttestationContext.VERIFY).valid());
        assertEquals(payerBefore - PRICE, stack.balance(payer()), "the payer paid exactly the price");
        assertEquals(payToBefore + PRICE, stack.balance(payTo()), "pay-to received exactly the price");

        JsonNode replayed = payForVerification(
                node, "--signature", paid.get("paymentSignature").asString());
        assertEquals(402, replayed.get("status").asInt(), replayed.toString());
        assertEquals("payment_replayed", replayed.get("body").get("code").asString());
        assertEquals(payerBefore - PRICE, stack.balance(payer()), "a replay moves nothing");

        String metrics = TestNodes.metrics(node);
        assertTrue(metrics.contains("proofline_payments_total{stage=\"settled\"} 1.0"), metrics);
        assertTrue(metrics.contains("proofline_payments_refused_total{code=\"payment_replayed\"}"), metrics);
    }

    @Test
    @Order(3)
    void aTamperedPaymentIsRefusedAndOnePaymentSentTwiceAtOnceIsServedOnce() throws Exception {
        long payerBefore = stack.balance(payer());
        String request = Files.readString(requestFile);
        JsonNode signed = payForVerification(node, "--sign-only");
        ObjectNode payload = (ObjectNode) signed.get("paymentPayload");

        ObjectNode cheaper = payload.deepCopy();
        ((ObjectNode) cheaper.get("accepted")).put("amount", "1");
        HttpResponse<String> offTerms = post("/verify/schema", request, Map.of("Payment-Signature", encode(cheaper)));
        assertEquals(402, offTerms.statusCode(), offTerms.body());
        assertEquals(
                "payment_invalid", StrictJson.parse(offTerms.body()).get("code").asString());

        ObjectNode forged = payload.deepCopy();
        ((ObjectNode) forged.get("payload").get("authorization")).put("value", "1");
        HttpResponse<String> badSignature =
                post("/verify/schema", request, Map.of("Payment-Signature", encode(forged)));
        assertEquals(402, badSignature.statusCode(), badSignature.body());
        assertEquals(
                "payment_invalid",
                StrictJson.parse(badSignature.body()).get("code").asString());
        // An authorization that would expire before its settlement, after the receipt, is refused
        // before the facilitator is asked (the reference client signs now + maxTimeoutSeconds).
        long validBefore =
                Long.parseLong(payload.at("/payload/authorization/validBefore").asString());
        assertTrue(validBefore > java.time.Instant.now().getEpochSecond() + 30, payload.toString());
        ObjectNode expiring = payload.deepCopy();
        ((ObjectNode) expiring.get("payload").get("authorization"))
                .put("validBefore", Long.toString(java.time.Instant.now().getEpochSecond() + 5));
        HttpResponse<String> tooSoon = post("/verify/schema", request, Map.of("Payment-Signature", encode(expiring)));
        assertEquals(402, tooSoon.statusCode(), tooSoon.body());
        JsonNode tooSoonError = StrictJson.parse(tooSoon.body());
        assertEquals("payment_invalid", tooSoonError.get("code").asString());
        assertTrue(tooSoonError.get("message").asString().contains("expires too soon"), tooSoon.body());
        assertTrue(tooSoon.headers().firstValue("Payment-Required").isPresent(), "the terms again");
        assertEquals(payerBefore, stack.balance(payer()), "refused payments move nothing");

        String header = signed.get("paymentSignature").asString();
        List<CompletableFuture<HttpResponse<String>>> twice = List.of(
                CompletableFuture.supplyAsync(() -> send(request, header)),
                CompletableFuture.supplyAsync(() -> send(request, header)));
        List<Integer> statuses =
                twice.stream().map(f -> f.join().statusCode()).sorted().toList();
        assertEquals(List.of(200, 402), statuses, "one payment, one receipt");
        assertEquals(payerBefore - PRICE, stack.balance(payer()), "charged once");
    }

    private static HttpResponse<String> send(String request, String header) {
        return send(node, request, header);
    }

    private static HttpResponse<String> send(ProoflineNode to, String request, String header) {
        try {
            return HTTP.send(
                    HttpRequest.newBuilder(URI.create(to.httpUrl() + "/verify/schema"))
                            .header("Content-Type", "application/json")
                            .header("Payment-Signature", header)
                            .POST(HttpRequest.BodyPublishers.ofString(request))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The reference x402 client paying for a verification of the request file at {@code to}, with more of its options. */
    private static JsonNode payForVerification(ProoflineNode to, String... options) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of(
                "--chain",
                stack.chainFile.toString(),
                "--url",
                to.httpUrl() + "/verify/schema",
                "--body",
                requestFile.toString()));
        args.addAll(List.of(options));
        return stack.run("pay.mjs", args.toArray(String[]::new));
    }

    private static String encode(JsonNode payload) {
        return Base64.getEncoder().encodeToString(payload.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    @Order(4)
    void theOfficialMcpClientPaysInMetaAndGetsTheSettlementBack() throws Exception {
        long payToBefore = stack.balance(payTo());
        JsonNode paid = stack.run(
                "mcp-pay.mjs",
                "--chain",
                stack.chainFile.toString(),
                "--url",
                node.httpUrl() + "/mcp",
                "--tool",
                "verify_schema",
                "--args-file",
                requestFile.toString());
        assertTrue(paid.get("paid").asBoolean(), paid.toString());
        assertEquals(2, paid.get("paymentRequired").get("x402Version").asInt(), paid.toString());
        assertFalse(paid.get("result").path("isError").asBoolean(false), paid.toString());
        assertTrue(paid.get("paymentResponse").get("success").asBoolean(), paid.toString());
        JsonNode receipt = StrictJson.parse(
                paid.get("result").get("content").get(0).get("text").asString());
        assertEquals("pass", receipt.get("result").asString());
        assertEquals(payToBefore + PRICE, stack.balance(payTo()));
    }

    @Test
    @Order(5)
    void onePaymentSentToTwoInstancesAtOnceIsServedOnce() throws Exception {
        Map<String, String> sharing = paymentSettings(2);
        sharing.put("keys.dir", tmp.resolve("node").resolve("keys").toString());
        try (ProoflineNode second = TestNodes.start(kafka.bootstrapServers(), tmp.resolve("second"), sharing)) {
            long payerBefore = stack.balance(payer());
            String request = Files.readString(requestFile);
            JsonNode signed = payForVerification(node, "--sign-only");
            String header = signed.get("paymentSignature").asString();
            List<CompletableFuture<HttpResponse<String>>> both = List.of(
                    CompletableFuture.supplyAsync(() -> send(node, request, header)),
                    CompletableFuture.supplyAsync(() -> send(second, request, header)));
            List<Integer> statuses =
                    both.stream().map(f -> f.join().statusCode()).sorted().toList();
            assertEquals(List.of(200, 402), statuses, "one payment, one receipt, whichever instance");
            assertEquals(payerBefore - PRICE, stack.balance(payer()), "charged once");
        }
    }

    @Test
    @Order(6)
    void aSignedScoreIsPaidWhenTheOperatorPricedItButNoDataStaysFree() throws Exception {
        HttpResponse<String> free = HTTP.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + "/score/test-nobody"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, free.statusCode(), "no_data is free: " + free.body());
        // The second instance of the test before just left: scores may be moving back (503 not_ready).
        HttpResponse<String> required = getOnceQueryable("/score/paying-seller");
        assertEquals(402, required.statusCode(), required.body());
        assertFalse(StrictJson.parse(required.body()).has("free_trial"), "scores have no free allowance");
        JsonNode terms =
                decoded(required.headers().firstValue("Payment-Required").orElseThrow());
        assertEquals(
                Long.toString(SCORE_PRICE),
                terms.get("accepts").get(0).get("amount").asString());
        long payToBefore = stack.balance(payTo());
        // A 503 (scores still moving) is answered before any payment is asked, so retrying costs nothing.
        JsonNode paid;
        long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        do {
            paid = stack.run(
                    "pay.mjs",
                    "--chain",
                    stack.chainFile.toString(),
                    "--method",
                    "GET",
                    "--url",
                    node.httpUrl() + "/score/paying-seller");
        } while (paid.get("status").asInt() == 503 && System.nanoTime() < until);
        assertEquals(200, paid.get("status").asInt(), paid.toString());
        assertTrue(paid.get("paymentResponse").get("success").asBoolean());
        assertTrue(paid.get("body").get("trust_score").isNumber(), paid.toString());
        // Scores are public, but this answer was paid for: no shared cache may keep it.
        assertEquals("no-store", paid.get("headers").path("cache-control").asString(""), paid.toString());
        assertEquals(payToBefore + SCORE_PRICE, stack.balance(payTo()));
        // /reputation stays free (a rebalance may still be settling: 503 is retried, never 402).
        assertEquals(200, getOnceQueryable("/reputation/paying-seller").statusCode());
    }

    /** GET, retried while the answer is 503 not_ready (scores moving between instances), up to a minute. */
    private static HttpResponse<String> getOnceQueryable(String path) throws Exception {
        HttpResponse<String> answer;
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        do {
            answer = HTTP.send(
                    HttpRequest.newBuilder(URI.create(node.httpUrl() + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() == 503) {
                Thread.sleep(500);
            }
        } while (answer.statusCode() == 503 && System.nanoTime() < deadline);
        return answer;
    }

    @Test
    @Order(7)
    void aPipelineThatCannotAnswerIsNeverCharged() throws Exception {
        Map<String, String> slow = paymentSettings(0);
        slow.put("application.id", "x402-slow");
        slow.put("verify.timeout.seconds", "1");
        slow.put("streams.commit.interval.ms", "8000"); // the receipt commits after the caller gave up
        slow.put("verify.eager.commit.ms", "0"); // and never earlier
        try (ProoflineNode slowNode = TestNodes.start(kafka.bootstrapServers(), tmp.resolve("slow"), slow)) {
            long payerBefore = stack.balance(payer());
            JsonNode unanswered = payForVerification(slowNode);
            assertEquals(504, unanswered.get("status").asInt(), unanswered.toString());
            assertEquals("receipt_pending", unanswered.get("body").get("code").asString());
            assertTrue(unanswered.get("paymentResponse").isNull(), "nothing settled");
            assertEquals(payerBefore, stack.balance(payer()), "no receipt, no charge");
        }
    }

    /**
     * A payment whose request the pipeline refused is given back: the same Payment-Signature then
     * pays for the mended request, once. It used to stay claimed, so the mended request was 402
     * payment_replayed though nothing had been charged.
     */
    @Test
    @Order(8)
    void aPaymentWhoseRequestWasRefusedServesTheMendedRequestOnce() throws Exception {
        Map<String, String> tight = paymentSettings(0);
        tight.put("application.id", "x402-tight");
        tight.put("verify.budget.steps", "5"); // the invoice takes more; a bare object fewer
        // Topics of its own: on the shared ones the first node would verify its requests too.
        for (String topic : List.of("input", "receipts", "dead.letter", "scores")) {
            tight.put("topics." + topic, "tight-" + topic);
        }
        try (ProoflineNode tightNode = TestNodes.start(kafka.bootstrapServers(), tmp.resolve("tight"), tight)) {
            long payerBefore = stack.balance(payer());
            String header = payForVerification(tightNode, "--sign-only")
                    .get("paymentSignature")
                    .asString();
            HttpResponse<String> refused = send(tightNode, Files.readString(requestFile), header);
            assertEquals(422, refused.statusCode(), refused.body());
            assertEquals(
                    "verification_budget_exceeded",
                    StrictJson.parse(refused.body()).get("code").asString());
            assertEquals(payerBefore, stack.balance(payer()), "refused, not charged");

            String mended = "{\"task_id\":\"mended\",\"agent_id\":\"paying-seller\","
                    + "\"expected_schema\":{\"type\":\"object\"},\"submitted_output\":{}}";
            HttpResponse<String> served = send(tightNode, mended, header);
            assertEquals(200, served.statusCode(), served.body());
            assertTrue(served.headers().firstValue("Payment-Response").isPresent(), "settled");
            assertEquals(payerBefore - PRICE, stack.balance(payer()), "charged once");

            HttpResponse<String> again = send(tightNode, mended, header);
            assertEquals(402, again.statusCode(), again.body());
            assertEquals(
                    "payment_replayed",
                    StrictJson.parse(again.body()).get("code").asString());
        }
    }
}
