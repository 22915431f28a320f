package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.StrictJson;
import dev.proofline.cli.ProoflineCliAccess;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The free allowance without payment (the embedded default): counted across two instances of one
 * deployment and across a restart, a key with its own allowance, an operator without one, errors
 * never counted, and past it 429 {@code free_allowance_exhausted} until the next UTC midnight.
 */
class AllowanceIT {
    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> verify(ProoflineNode node, String body, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.httpUrl() + "/verify/schema"))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Anonymous, from {@code client} as a trusted proxy on loopback names it. */
    private HttpResponse<String> verifyFrom(ProoflineNode node, String body, String client) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + "/verify/schema"))
                        .header("X-Forwarded-For", client)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(ProoflineNode node, String path) throws Exception {
        return java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.httpUrl() + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    private static String remaining(HttpResponse<String> served) {
        assertEquals(200, served.statusCode(), served.body());
        return served.headers().firstValue("Free-Allowance-Remaining").orElse("none");
    }

    @Test
    void countedAcrossInstancesAndRestartsThen429UntilMidnight() throws Exception {
        // The allowance is counted per UTC day: a run that would straddle midnight (it takes about
        // 20 s) waits for the new day first, or the count would start again halfway through.
        Instant now = Instant.now();
        Duration toMidnight =
                Duration.between(now, now.truncatedTo(ChronoUnit.DAYS).plus(1, ChronoUnit.DAYS));
        if (toMidnight.toSeconds() < 120) {
            Thread.sleep(toMidnight.toMillis() + 1_000);
        }
        String request = Files.readString(Conformance.file("requests/invoice-final.json"))
                .replace("test-seller-invoice-agent", "allowance-seller");
        // This deployment also runs no transparency log: none of its routes, nothing in the agent-card.
        Map<String, String> settings = Map.of(
                "allowance.per.day",
                "3",
                "keys.dir",
                tmp.resolve("keys").toString(),
                "tlog.enabled",
                "false",
                "http.trusted.proxies",
                "127.0.0.1,::1");
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"))) {
            ProoflineNode a = TestNodes.start(kafka.bootstrapServers(), tmp.resolve("a"), settings);
            try (ProoflineNode b = TestNodes.start(kafka.bootstrapServers(), tmp.resolve("b"), settings)) {
                assertEquals("2", remaining(verify(a, request, null)));
                assertEquals(404, get(b, "/tlog/checkpoint").statusCode());
                assertEquals(
                        404,
                        get(b, "/receipts/" + java.util.UUID.randomUUID() + "/proof")
                                .statusCode());
                assertTrue(
                        StrictJson.parse(get(b, "/.well-known/agent-card.json").body())
                                .path("transparency_log")
                                .isMissingNode());
                assertEquals(422, verify(a, "{\"task_id\": 1}", null).statusCode(), "an error is never counted");
                assertEquals("1", remaining(verify(a, request, null)));
                Thread.sleep(500); // a's count travels through Kafka to b
                assertEquals("0", remaining(verify(b, request, null)), "b counts a's verifications too");
                Thread.sleep(500);
                HttpResponse<String> refused = verify(a, request, null);
                assertEquals(429, refused.statusCode(), refused.body());
                JsonNode error = StrictJson.parse(refused.body());
                assertEquals("free_allowance_exhausted", error.get("code").asString());
                assertTrue(error.get("retryable").asBoolean());
                long untilMidnight = Duration.between(
                                Instant.now(),
                                Instant.now().truncatedTo(ChronoUnit.DAYS).plus(1, ChronoUnit.DAYS))
                        .toSeconds();
                int retryAfter = error.get("retry_after").asInt();
                assertTrue(Math.abs(retryAfter - untilMidnight) <= 5, retryAfter + " vs " + untilMidnight);
                assertEquals(
                        Integer.toString(retryAfter),
                        refused.headers().firstValue("Retry-After").orElse(""));
                JsonNode trial = error.get("free_trial");
                assertFalse(trial.get("available").asBoolean());
                assertEquals("3", trial.get("calls_per_client_per_day").asString());
                assertEquals(0, trial.get("remaining_calls_today").asInt());
                assertEquals("free_trial_exhausted", trial.get("code").asString());
                assertTrue(trial.get("message").asString().contains("3 free checks for today are used up"));

                // Anonymous IPv6 callers count by their /64: one host holds a whole /64, and could
                // otherwise take a fresh address for every request.
                assertEquals("2", remaining(verifyFrom(a, request, "2001:db8:1:2::a")));
                assertEquals("1", remaining(verifyFrom(a, request, "2001:db8:1:2::b")));
                assertEquals("0", remaining(verifyFrom(a, request, "2001:db8:1:2:ffff::c")));
                assertEquals(429, verifyFrom(a, request, "2001:db8:1:2::d").statusCode(), "the same /64");
                assertEquals("2", remaining(verifyFrom(a, request, "2001:db8:1:3::a")), "another /64");

                // A key with its own allowance, and an operator's key without any.
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                assertEquals(
                        0,
                        ProoflineCliAccess.run(
                                List.of(
                                        "caller",
                                        "add",
                                        "capped",
                                        "--allowance",
                                        "1",
                                        "--bootstrap-servers",
                                        kafka.bootstrapServers(),
                                        "--data-dir",
                                        tmp.resolve("a").resolve("node").toString(),
                                        "--keys-dir",
                                        tmp.resolve("keys").toString()),
                                out));
                String capped = out.toString(StandardCharsets.UTF_8).trim();
                assertEquals("0", remaining(verify(b, request, capped)));
                assertEquals(429, verify(b, request, capped).statusCode());
                String operator = a.operatorToken().orElseThrow();
                for (int i = 0; i < 5; i++) {
                    assertEquals("none", remaining(verify(b, request, operator)), "operators are not metered");
                }
            }
            a.close();
            // A restarted instance continues its own count: still used up.
            try (ProoflineNode again = TestNodes.start(kafka.bootstrapServers(), tmp.resolve("a"), settings)) {
                assertEquals(429, verify(again, request, null).statusCode());
            }
        }
    }
}
