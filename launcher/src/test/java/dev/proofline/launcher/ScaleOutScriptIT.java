package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.StrictJson;
import dev.proofline.client.AgentCardKeys;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * scripts/scale-out.sh as a user runs it: one broker, two instances, the load generator, all real
 * processes. Both instances process partitions (the second through the first's schema registry,
 * over REST), every request sent is counted exactly once, both answer the same signed scores and
 * receipts, and SIGTERM to the script stops every process.
 */
class ScaleOutScriptIT {
    private static final int AGENTS = 5;
    private static final Pattern SENT = Pattern.compile("sent ([0-9,]+) requests .* refused ([0-9,]+)");
    private static final Pattern OWNED =
            Pattern.compile("instance (\\d) \\(.*\\) processes agent-outputs partitions: ([0-9,]+)");

    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();

    private JsonNode get(String url) throws Exception {
        return get(url, null);
    }

    /** With an operator token (receipts are for operators and their submitters). */
    private JsonNode get(String url, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), url + ": " + response.body());
        return StrictJson.parse(response.body());
    }

    @Test
    void twoInstancesShareTheWorkAnswerTheSameScoresAndStopTogether() throws Exception {
        // chosen together: ports chosen one after another can repeat
        int[] ports = EmbeddedKafkaBroker.freePorts("127.0.0.1", 3);
        int kafkaPort = ports[0];
        int[] httpPorts = {ports[1], ports[2]};
        ProcessBuilder builder = new ProcessBuilder(
                        "bash",
                        "scripts/scale-out.sh",
                        "--duration",
                        "8",
                        "--rate",
                        "50",
                        "--agents",
                        Integer.toString(AGENTS))
                .directory(Conformance.repoRoot().toFile())
                .redirectErrorStream(true);
        builder.environment().put("KAFKA_PORT", Integer.toString(kafkaPort));
        builder.environment().put("HTTP_PORT_1", Integer.toString(httpPorts[0]));
        builder.environment().put("HTTP_PORT_2", Integer.toString(httpPorts[1]));
        builder.environment().put("SCALE_OUT_DIR", tmp.toString());
        Process script = builder.start();
        List<String> lines = new ArrayList<>();
        CompletableFuture<Void> running = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(script.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                    if (line.startsWith("scale-out running:")) {
                        running.complete(null);
                    }
                }
                running.completeExceptionally(new AssertionError("the script ended before it was running"));
            } catch (Exception e) {
                running.completeExceptionally(e);
            }
        });
        reader.start();
        try {
            running.get(300, TimeUnit.SECONDS);
            String output;
            synchronized (lines) {
                output = String.join("\n", lines);
            }
            Matcher ready = java.util.regex.Pattern.compile("Kafka broker ready: (\\S+)")
                    .matcher(output);
            assertTrue(ready.find(), output);
            assertEquals(3, ready.group(1).split(",").length, "a three-broker cluster: " + ready.group(1));
            Matcher sent = SENT.matcher(output);
            assertTrue(sent.find(), output);
            long requests = Long.parseLong(sent.group(1).replace(",", ""));
            assertEquals("0", sent.group(2), "the broker refused nothing");

            Matcher owned = OWNED.matcher(output);
            List<Set<Integer>> shares = new ArrayList<>();
            while (owned.find()) {
                shares.add(Arrays.stream(owned.group(2).split(","))
                        .map(Integer::valueOf)
                        .collect(Collectors.toSet()));
            }
            assertEquals(2, shares.size(), output);
            assertFalse(
                    shares.get(0).isEmpty() || shares.get(1).isEmpty(), "both instances process partitions: " + shares);
            Set<Integer> all = new HashSet<>(shares.get(0));
            all.addAll(shares.get(1));
            assertEquals(shares.get(0).size() + shares.get(1).size(), all.size(), "no partition twice");
            assertEquals(IntStream.range(0, 6).boxed().collect(Collectors.toSet()), all, "every partition processed");

            String[] urls = {"http://127.0.0.1:" + httpPorts[0], "http://127.0.0.1:" + httpPorts[1]};
            for (String url : urls) {
                JsonNode board = get(url + "/agents");
                assertEquals(2, board.get("instances").asInt(), url);
                assertTrue(board.get("complete").asBoolean(), url);
                assertEquals(AGENTS, board.get("agent_count").asInt(), url);
                long counted = 0;
                for (JsonNode row : board.get("agents")) {
                    counted += row.get("total").asLong();
                }
                assertEquals(requests, counted, url + ": every request sent is counted exactly once");
            }
            // Instance 2 works through instance 1's registry over REST: it serves none itself.
            assertTrue(get(urls[0] + "/subjects").toString().contains("receipts-value"));
            assertEquals(
                    404,
                    http.send(
                                    HttpRequest.newBuilder(URI.create(urls[1] + "/subjects"))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode());

            // Any receipt by its id, from either instance: only one holds its index entry.
            // The first instance up made the deployment's operator key and kept its token in its data dir.
            String operator = null;
            for (String node : List.of("node-1", "node-2")) {
                java.nio.file.Path file = tmp.resolve(node).resolve("operator.token");
                if (operator == null && java.nio.file.Files.exists(file)) {
                    operator = java.nio.file.Files.readString(file).trim();
                }
            }
            assertTrue(operator != null, "an operator token in node-1 or node-2");
            JsonNode recent =
                    get(urls[0] + "/agents/invoice-agent-01/receipts", operator).get("receipts");
            assertTrue(recent.size() >= 3, recent.toString());
            for (int i = 0; i < 3; i++) {
                String id = recent.get(i).get("verification_id").asString();
                for (String url : urls) {
                    assertEquals(recent.get(i), get(url + "/receipts/" + id, operator), url + " /receipts/" + id);
                }
            }
            AgentCardKeys keys = AgentCardKeys.of(urls[0]);
            for (int k = 1; k <= AGENTS; k++) {
                String agent = String.format("invoice-agent-%02d", k);
                List<Double> scores = new ArrayList<>();
                for (String url : urls) {
                    JsonNode score = get(url + "/score/" + agent);
                    ReceiptVerifier verifier = new ReceiptVerifier(keys.forVersion(
                            score.get("attestation").get("key_version").asString()));
                    assertTrue(
                            verifier.verifySignature(score, AttestationContext.SCORE)
                                    .valid(),
                            url + " " + agent);
                    scores.add(score.get("trust_score").asDouble());
                }
                assertEquals(scores.get(0), scores.get(1), agent + ": both instances answer the same score");
                assertTrue(output.contains(agent), "the script printed " + agent);
            }
            List<ProcessHandle> children = script.descendants().toList();
            assertTrue(
                    children.size() >= 6,
                    "the broker command, three brokers and two instances run as processes: " + children);

            script.destroy(); // SIGTERM, as Ctrl-C or a service manager would
            assertTrue(script.waitFor(120, TimeUnit.SECONDS), "the script stops");
            for (ProcessHandle child : children) {
                child.onExit().get(60, TimeUnit.SECONDS);
            }
            for (int port : new int[] {kafkaPort, httpPorts[0], httpPorts[1]}) {
                assertFalse(listening(port), "nothing listens on " + port + " any more");
            }
        } finally {
            script.descendants().forEach(ProcessHandle::destroyForcibly);
            script.destroyForcibly();
        }
    }

    private static boolean listening(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
