package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.CanonicalJson;
import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.StrictJson;
import dev.proofline.client.ProoflineClient;
import dev.proofline.client.VerifiedReceipt;
import dev.proofline.load.Defect;
import dev.proofline.load.InvoiceRequests;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The dashboard in a real browser: Debian's Chromium driven by playwright-core (from npm) loads
 * /dashboard after a seeded run, sees the agents in score order, opens one, sees every receipt's
 * signature checked in the page, and sees a new receipt arrive on the live feed. Screenshots are
 * saved under launcher/target/dashboard-screenshots.
 */
class DashboardIT {
    private static final List<String> AGENTS = List.of("dash-careful", "dash-mixed", "dash-sloppy");

    @TempDir
    static Path tmp;

    static TestKafka kafka;
    static ProoflineNode node;

    @BeforeAll
    static void start() throws Exception {
        Chromium.ensureInstalled();
        kafka = TestKafka.start(tmp.resolve("broker"));
        node = TestNodes.start(kafka.bootstrapServers(), tmp);
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

    /** Twelve invoices per agent: careful 12 right, mixed 6 right 6 wrong, sloppy 2 right 10 wrong. */
    private static void seed() throws Exception {
        InvoiceRequests invoices = new InvoiceRequests(11);
        Defect[] defects = {
            Defect.TOTAL_MISMATCH,
            Defect.DUPLICATE_SKU,
            Defect.MISSING_CURRENCY,
            Defect.ZERO_QUANTITY,
            Defect.MALFORMED_INVOICE_ID
        };
        int[] wrong = {0, 6, 10};
        List<CompletableFuture<VerifiedReceipt>> receipts = new ArrayList<>();
        try (ProoflineClient client = ProoflineClient.overKafka(node.bootstrapServers(), node.httpUrl())) {
            for (int a = 0; a < AGENTS.size(); a++) {
                for (int i = 0; i < 12; i++) {
                    Defect defect = i < wrong[a] ? defects[i % defects.length] : Defect.NONE;
                    receipts.add(client.verify(invoices.request(AGENTS.get(a), AGENTS.get(a) + "-" + i, defect)));
                }
            }
            for (CompletableFuture<VerifiedReceipt> r : receipts) {
                r.get(60, TimeUnit.SECONDS);
            }
        }
    }

    /** Scores follow receipts through the KTable's commit: wait until all 36 are counted. */
    private static void awaitScores() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String body = http.send(
                            HttpRequest.newBuilder(URI.create(node.httpUrl() + "/agents"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            long counted = 0;
            for (JsonNode row : StrictJson.parse(body).path("agents")) {
                counted += row.get("total").asLong();
            }
            if (counted == 36) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the leaderboard never counted the 36 seeded receipts");
    }

    @Test
    void aPersonSeesTheAgentsOpensOneAndEveryReceiptIsVerifiedInTheBrowser() throws Exception {
        seed();
        awaitScores();
        Path tools = NodeTools.install("playwright-core@1.64.1");
        Path live = tmp.resolve("live-request.json");
        Files.writeString(
                live,
                Files.readString(Conformance.file("requests/invoice-final.json"))
                        .replace("test-seller-invoice-agent", "dash-careful")
                        .replace("invoice-7731-final", "dash-live-1"));
        Path screenshots = Conformance.repoRoot().resolve("launcher/target/dashboard-screenshots");
        Files.createDirectories(screenshots);

        JsonNode seen = StrictJson.parse(NodeTools.run(
                tools,
                "dashboard-check.mjs",
                node.httpUrl(),
                "dash-mixed",
                live.toString(),
                screenshots.toString(),
                node.operatorToken().orElseThrow()));

        assertTrue(seen.path("failure").isMissingNode(), seen.toString());
        // Anyone sees the leaderboard and the agent's scores, never a receipt.
        JsonNode publicView = seen.get("publicView");
        assertEquals(0, publicView.get("receiptRows").asInt(), publicView.toString());
        assertTrue(publicView.get("lockedShown").asBoolean(), "the page says receipts are for operators");
        assertFalse(publicView.get("feedShown").asBoolean(), "no live feed without a token");
        assertEquals(
                0,
                publicView.get("receiptRequests").size(),
                publicView.get("receiptRequests").toString());
        assertFalse(seen.get("tokenInAnyUrl").asBoolean(), "the token travels in a header, never in a URL");

        assertTrue(
                seen.get("keysStatus").asString().startsWith("signatures checked with 1 published key"),
                seen.toString());
        List<String> order = new ArrayList<>();
        seen.get("leaderboard").forEach(row -> order.add(row.get("agent").asString()));
        assertEquals(AGENTS, order, "best first: 12/12 before 6/12 before 2/12");
        JsonNode mixedRow = seen.get("leaderboard").get(1).get("cells");
        assertEquals("50.0%", mixedRow.get(3).asString(), "pass rate");
        assertEquals("6", mixedRow.get(4).asString(), "passed");
        assertEquals("6", mixedRow.get(5).asString(), "failed");

        assertEquals("dash-mixed", seen.get("agentTitle").asString());
        assertEquals(
                "dash-mixed",
                seen.get("raceTitle").asString(),
                "an agent opened while " + seen.get("raceSlowAgent") + " was still being read stays shown");
        assertEquals(1, seen.get("slowReads").asInt(), "a view that was left is not refreshed");
        assertTrue(seen.get("chartPoints").asInt() >= 1, "the score-over-time chart has points");
        String cards = seen.get("summaryCards").toString();
        assertTrue(cards.contains("decayed score (half-life 30 d)"), cards);
        assertTrue(cards.contains("6 / 6last 30d: passed / failed"), "six passed, six failed this month: " + cards);
        assertEquals(1, seen.get("decayedLine").asInt(), "the decayed score is drawn beside the lifetime one");
        JsonNode receipts = seen.get("receipts");
        assertEquals(12, receipts.size(), "all twelve recent receipts are shown");
        long passed = 0;
        for (JsonNode r : receipts) {
            assertEquals("✓ verified", r.get("signature").asString(), r.toString());
            passed += r.get("result").asString().equals("pass") ? 1 : 0;
        }
        assertEquals(6, passed);
        String publicPage = publicView.get("text").asString();
        for (JsonNode r : receipts) {
            assertFalse(publicPage.contains(r.get("id").asString()), "a receipt id in the public page");
        }

        JsonNode tamper = seen.get("tamper");
        assertTrue(tamper.get("original").asBoolean(), "the page's own check accepts the receipt as signed");
        assertFalse(tamper.get("tampered").asBoolean(), "and refuses it with one value changed");
        assertFalse(tamper.get("unknownKey").asBoolean(), "and refuses a key version the agent-card does not publish");

        assertTrue(
                seen.get("liveVerified").asBoolean(),
                "the receipt published while watching arrives verified: " + seen.get("liveItem"));
        assertTrue(seen.get("liveItem").asString().contains("dash-careful"));
        assertEquals(
                0, seen.get("consoleErrors").size(), seen.get("consoleErrors").toString());
        for (String png : List.of("dashboard-leaderboard.png", "dashboard-public.png", "dashboard-agent.png")) {
            byte[] bytes = Files.readAllBytes(screenshots.resolve(png));
            assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(bytes, 4), png + " is a PNG");
        }
    }

    @Test
    void theInteractiveDocsVerifyTheSampleInvoiceFromTryItOut() throws Exception {
        Path tools = NodeTools.install("playwright-core@1.64.1");
        Path screenshots = Conformance.repoRoot().resolve("launcher/target/dashboard-screenshots");
        Files.createDirectories(screenshots);
        JsonNode seen =
                StrictJson.parse(NodeTools.run(tools, "docs-check.mjs", node.httpUrl(), screenshots.toString()));
        assertTrue(seen.path("failure").isMissingNode(), seen.toString());
        assertTrue(seen.get("title").asString().startsWith("Proofline"), seen.toString());
        assertTrue(seen.get("operations").toString().contains("/receipts/{verification_id}"), seen.toString());
        // The browser writes 87.0 as 87: the same JSON value, so compare canonical forms.
        assertEquals(
                CanonicalJson.toCanonicalString(
                        StrictJson.parse(Files.readString(Conformance.file("requests/invoice-draft.json")))),
                CanonicalJson.toCanonicalString(
                        StrictJson.parse(seen.get("exampleBody").asString())),
                "try it out offers the sample invoice");
        assertEquals("200", seen.get("status").asString(), seen.toString());
        JsonNode receipt = StrictJson.parse(seen.get("responseBody").asString());
        assertEquals("fail", receipt.get("result").asString());
        assertEquals(
                "[\"consistency:sum_equals\"]",
                receipt.get("summary").get("blocking_checks").toString());
        try (ProoflineClient client = ProoflineClient.overRest(node.httpUrl())) {
            assertEquals(
                    receipt.get("verification_id").asString(),
                    client.verifyOffline(seen.get("responseBody").asString()).verificationId(),
                    "the receipt the page shows verifies against the agent-card");
        }
        assertEquals(
                List.of(URI.create(node.httpUrl()).getAuthority()),
                listOf(seen.get("requests")),
                "everything the page loads comes from this deployment: no CDN");
        assertEquals(
                0, seen.get("consoleErrors").size(), seen.get("consoleErrors").toString());
    }

    private static List<String> listOf(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asString()));
        return values;
    }
}
