package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.StrictJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Two Proofline instances (child JVMs) share the work on one broker: a score asked of either is the
 * same, for agents owned by each; when one is killed (SIGKILL), the other answers for every agent
 * after the rebalance.
 */
class ScaleOutIT {
    static final int REQUESTS = 2_000;
    static final int AGENTS = 13;

    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();

    private ChildProofline start(String name, String bootstrap, String httpPort) throws Exception {
        return ChildProofline.up(
                tmp.resolve(name + ".log"),
                "--bootstrap-servers",
                bootstrap,
                "--data-dir",
                tmp.resolve(name).toString(),
                "--keys-dir",
                tmp.resolve("keys").toString(),
                "--http-port",
                httpPort,
                "--application-id",
                "scale-out",
                "--topics-partitions",
                "4",
                // a killed member's partitions move once its session times out: keep that short here
                "--streams.session.timeout.ms",
                "8000");
    }

    @Test
    void eitherInstanceAnswersForEveryAgentAndTheSurvivorTakesOverFromAKilledOne() throws Exception {
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"))) {
            System.out.println("scale-out IT runs on " + kafka.description());
            int[] ports = EmbeddedKafkaBroker.freePorts("127.0.0.1", 2); // together, so never the same
            String a = "http://127.0.0.1:" + ports[0];
            String b = "http://127.0.0.1:" + ports[1];
            try (ChildProofline first = start("a", kafka.bootstrapServers(), a.substring(a.lastIndexOf(':') + 1));
                    ChildProofline second = start("b", kafka.bootstrapServers(), b.substring(b.lastIndexOf(':') + 1))) {
                PipelineHarness.produce(kafka.bootstrapServers(), 0, REQUESTS);
                Map<String, Long> totals = expectedTotals();
                Map<String, JsonNode> fromA = scoresOnceComplete(a, totals);
                Map<String, JsonNode> fromB = scoresOnceComplete(b, totals);
                Set<String> ownedByA = new HashSet<>();
                Set<String> ownedByB = new HashSet<>();
                for (String agent : totals.keySet()) {
                    assertEquals(
                            fromA.get(agent).get("inputs"), fromB.get(agent).get("inputs"), agent);
                    assertEquals(
                            fromA.get(agent).get("trust_score"),
                            fromB.get(agent).get("trust_score"),
                            agent);
                    (get(a, "/internal/agent-history/" + agent).statusCode() == 200 ? ownedByA : ownedByB).add(agent);
                }
                assertTrue(
                        !ownedByA.isEmpty() && !ownedByB.isEmpty(),
                        "each instance owns agents: " + ownedByA + " / " + ownedByB);
                // Both instances serve the one transparency log: the same checkpoint and the same tiles
                // and bundles (every proof either gives is computed from these alone).
                long logged =
                        totals.values().stream().mapToLong(Long::longValue).sum();
                String checkpoint = checkpointOfSize(a, logged);
                assertEquals(checkpoint, checkpointOfSize(b, logged));
                // ...named alike: each instance's agent-card key opens it, though they answer on two ports.
                for (String instance : List.of(a, b)) {
                    String vkey = StrictJson.parse(get(instance, "/.well-known/agent-card.json")
                                    .body())
                            .at("/transparency_log/verifier_key")
                            .asString();
                    assertEquals(
                            logged,
                            dev.proofline.tlog.Checkpoint.open(checkpoint, dev.proofline.tlog.NoteVerifier.parse(vkey))
                                    .size());
                }
                int tiles = 0;
                for (long n = 0; n * 256 < logged; n++) {
                    long width = Math.min(256, logged - n * 256);
                    String suffix = String.format("%03d", n) + (width == 256 ? "" : ".p/" + width);
                    for (String path : List.of("/tlog/tile/0/" + suffix, "/tlog/tile/entries/" + suffix)) {
                        byte[] tileFromA = bytes(a, path);
                        assertTrue(tileFromA.length > 0, path);
                        assertTrue(java.util.Arrays.equals(tileFromA, bytes(b, path)), path);
                        tiles++;
                    }
                }
                first.kill();
                Map<String, JsonNode> survivor = scoresOnceComplete(b, totals);
                for (String agent : totals.keySet()) {
                    assertEquals(
                            fromA.get(agent).get("inputs"), survivor.get(agent).get("inputs"), agent);
                }
                ReceiptVerifier verifier =
                        new ReceiptVerifier(KeyRing.openOrCreate(tmp.resolve("keys"), Clock.systemUTC())
                                .trustedKeys());
                survivor.values()
                        .forEach(s -> assertTrue(verifier.verifySignature(s, AttestationContext.SCORE)
                                .valid()));
                System.out.println("scale-out IT: instance a owned " + ownedByA.size() + " agents, b owned "
                        + ownedByB.size() + "; after a was SIGKILLed, b answered for all " + totals.size()
                        + "; both served the same checkpoint of " + logged + " entries and " + tiles + " tiles");
            }
        }
    }

    private static Map<String, Long> expectedTotals() {
        Map<String, Long> totals = new HashMap<>();
        for (int i = 0; i < REQUESTS; i++) {
            if (TestRequests.isValid(i)) {
                totals.merge(TestRequests.agentId(i), 1L, Long::sum);
            }
        }
        assertEquals(AGENTS, totals.size());
        return totals;
    }

    /** Asks for every agent's score until each shows its full total; 503 during a rebalance is retried. */
    private Map<String, JsonNode> scoresOnceComplete(String baseUrl, Map<String, Long> totals) throws Exception {
        Map<String, JsonNode> scores = new HashMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (scores.size() < totals.size() && System.nanoTime() < deadline) {
            for (Map.Entry<String, Long> entry : totals.entrySet()) {
                if (scores.containsKey(entry.getKey())) {
                    continue;
                }
                HttpResponse<String> response = get(baseUrl, "/score/" + entry.getKey());
                if (response.statusCode() == 503) {
                    assertEquals(
                            "not_ready",
                            StrictJson.parse(response.body()).get("code").asString());
                    continue;
                }
                if (response.statusCode() != 200) {
                    // Say why: the instance's own log names what failed.
                    assertEquals(200, response.statusCode(), response.body() + "\n" + logTails());
                }
                JsonNode score = StrictJson.parse(response.body());
                if (score.path("inputs").path("total").asLong() == entry.getValue()) {
                    scores.put(entry.getKey(), score);
                }
            }
            Thread.sleep(200);
        }
        assertEquals(totals.keySet(), scores.keySet(), "every agent answered in full by " + baseUrl);
        return scores;
    }

    private String logTails() throws Exception {
        StringBuilder tails = new StringBuilder();
        for (String name : List.of("a.log", "b.log")) {
            List<String> lines = java.nio.file.Files.readAllLines(tmp.resolve(name));
            tails.append("--- ").append(name).append(" (last 40 lines)\n");
            lines.subList(Math.max(0, lines.size() - 40), lines.size())
                    .forEach(l -> tails.append(l).append('\n'));
        }
        return tails.toString();
    }

    private String checkpointOfSize(String baseUrl, long size) throws Exception {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> response = get(baseUrl, "/tlog/checkpoint");
            if (response.statusCode() == 200 && response.body().split("\n")[1].equals(Long.toString(size))) {
                return response.body();
            }
            Thread.sleep(250);
        }
        throw new AssertionError(baseUrl + " served no checkpoint of size " + size);
    }

    private byte[] bytes(String baseUrl, String path) throws Exception {
        HttpResponse<byte[]> response = http.send(
                HttpRequest.newBuilder(URI.create(baseUrl + path)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode(), baseUrl + path);
        return response.body();
    }

    private HttpResponse<String> get(String baseUrl, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(baseUrl + path))
                        // the internal routes answer instances of this deployment: they share the secret
                        .header(
                                dev.proofline.access.InstanceCredential.HEADER,
                                new dev.proofline.access.InstanceCredential(
                                                dev.proofline.attestor.DeploymentSecret.open(tmp.resolve("keys")))
                                        .value())
                        .timeout(java.time.Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
