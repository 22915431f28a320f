package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proofline.attestor.StrictJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * Requests that each take nearly the whole step budget (seconds of pattern matching), one on each
 * of several partitions of a single stream thread. The thread commits only after a pass over its tasks, so the
 * pass's transaction stays open for all of them together: with Kafka Streams' own 10 s transaction
 * timeout the broker aborted it, the thread was fenced, and the pass was verified again (and
 * again). Each request is verified once, and answered.
 */
class SlowRecordsIT {
    /** Room for 20 s of slow requests, one per partition, down to 2 s each. */
    private static final int PARTITIONS = 11;

    @TempDir
    Path tmp;

    @Test
    void slowRequestsOnEveryPartitionOfOneThreadAreEachVerifiedOnce() throws Exception {
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"));
                ProoflineNode node = TestNodes.start(
                        kafka.bootstrapServers(),
                        tmp,
                        Map.of(
                                "topics.partitions",
                                Integer.toString(PARTITIONS),
                                "streams.num.stream.threads",
                                "1",
                                "verify.timeout.seconds",
                                "120"))) {
            System.out.println("SlowRecordsIT on " + kafka.description());
            HttpClient http = HttpClient.newHttpClient();
            long started = System.nanoTime();
            assertEquals(
                    200,
                    http.send(verify(node, "slow-timing"), HttpResponse.BodyHandlers.ofString())
                            .statusCode());
            double seconds = (System.nanoTime() - started) / 1e9;
            assumeTrue(seconds < 8, "one slow request took " + seconds + " s: too slow a machine for these margins");
            // A pass's transaction is open from its first receipt's write to the commit after the
            // last request: (n - 1) slow requests, about 20 s here, past Streams' own 10 s and well
            // within 45 s, on a slower or a faster machine alike.
            int slow = (int) Math.max(3, Math.min(PARTITIONS, Math.round(20 / seconds) + 1));
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (String agent : oneAgentPerPartition().subList(0, slow)) {
                answers.add(http.sendAsync(verify(node, agent), HttpResponse.BodyHandlers.ofString()));
            }
            for (CompletableFuture<HttpResponse<String>> answer : answers) {
                HttpResponse<String> receipt = answer.get();
                assertEquals(200, receipt.statusCode(), receipt.body());
                assertEquals(
                        "fail", StrictJson.parse(receipt.body()).get("result").asString());
            }
            assertEquals(
                    slow + 1,
                    verifications(node),
                    slow + " slow requests at once (each " + seconds + " s alone), each verified once");
        }
    }

    private static HttpRequest verify(ProoflineNode node, String agent) {
        return HttpRequest.newBuilder(URI.create(node.httpUrl() + "/verify/schema"))
                .POST(HttpRequest.BodyPublishers.ofString(slowRequest(agent)))
                .build();
    }

    /**
     * A string of 190,000 characters against a pattern of some 2,000 instructions: under the step
     * budget, so it is matched in full, at RE2/J's worst (about 4 s on the development machine).
     */
    private static String slowRequest(String agent) {
        ObjectNode request = StrictJson.NODES.objectNode();
        request.put("task_id", "slow-" + agent);
        request.put("agent_id", agent);
        request.set("expected_schema", StrictJson.parse("{\"type\":\"string\",\"pattern\":\"[ab]{1000}c\"}"));
        request.put("submitted_output", "a".repeat(190_000));
        return request.toString();
    }

    /** Agent ids that Kafka's partitioner puts on each partition once (the front door keys by agent). */
    private static List<String> oneAgentPerPartition() {
        String[] byPartition = new String[PARTITIONS];
        int found = 0;
        for (int i = 0; found < PARTITIONS; i++) {
            String agent = "slow-agent-" + i;
            int partition = Utils.toPositive(Utils.murmur2(agent.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
            if (byPartition[partition] == null) {
                byPartition[partition] = agent;
                found++;
            }
        }
        return List.of(byPartition);
    }

    private static long verifications(ProoflineNode node) throws Exception {
        String metrics = TestNodes.metrics(node);
        Matcher fails = Pattern.compile("proofline_verifications_total\\{result=\"fail\"} ([0-9.E]+)")
                .matcher(metrics);
        assertTrue(fails.find(), metrics);
        return (long) Double.parseDouble(fails.group(1));
    }
}
