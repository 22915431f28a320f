package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.StrictJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code ./proofline up} stopped with SIGTERM and started again on its data directory keeps its
 * topics, schema ids and signing key, and re-emits no receipt; its local state survives the stop.
 */
class RestartIT {
    @TempDir
    Path tmp;

    record State(Set<String> topics, int schemaId, String publicKey) {}

    @Test
    void restartKeepsTopicsSchemaIdsAndKeyAndReEmitsNothing() throws Exception {
        int[] ports = EmbeddedKafkaBroker.freePorts("127.0.0.1", 2); // together, so never the same
        String kafkaPort = Integer.toString(ports[0]);
        String httpPort = Integer.toString(ports[1]);
        String data = tmp.resolve("data").toString();
        String[] flags = {"--data-dir", data, "--kafka-port", kafkaPort, "--http-port", httpPort};
        String bootstrap = "127.0.0.1:" + kafkaPort;

        State before;
        try (ChildProofline first = ChildProofline.up(tmp.resolve("first.log"), flags)) {
            assertEquals(
                    "Proofline ready: kafka=" + bootstrap + " http=http://127.0.0.1:" + httpPort, first.readyLine());
            // Requests for one agent only, so two of the three partitions' stores stay empty: a store
            // with nothing in it must come back from a clean stop as well as one with data.
            PipelineHarness.produce(bootstrap, 0, 1);
            int valid = PipelineHarness.count(0, 1, TestRequests::isValid);
            assertEquals(
                    valid,
                    PipelineHarness.readCommitted(bootstrap, "receipts", valid, Duration.ofSeconds(60))
                            .size());
            before = state(bootstrap, httpPort, data);
            assertDailyCountsOutliveTheirWindows(bootstrap);
            assertEquals(143, first.stop(), "terminated by SIGTERM, as the JVM reports it");
            assertTrue(
                    java.nio.file.Files.readString(tmp.resolve("first.log")).contains("Proofline stopped"),
                    "the shutdown hook closed everything");
        }
        try (ChildProofline second = ChildProofline.up(tmp.resolve("second.log"), flags)) {
            assertEquals(before, state(bootstrap, httpPort, data), "same topics, schema id and signing key");
            PipelineHarness.produce(bootstrap, 1, 50);
            int valid = PipelineHarness.count(0, 50, TestRequests::isValid);
            List<ConsumerRecord<String, byte[]>> receipts =
                    PipelineHarness.readCommitted(bootstrap, "receipts", valid, Duration.ofSeconds(60));
            var byTask = PipelineHarness.verifiedReceiptsByTask(
                    receipts,
                    "http://127.0.0.1:" + httpPort,
                    dev.proofline.attestor.KeyRing.openOrCreate(Path.of(data, "keys"), Clock.systemUTC())
                            .trustedKeys());
            assertEquals(valid, receipts.size(), "nothing re-emitted after the restart");
            byTask.forEach((task, list) -> assertEquals(1, list.size(), task));
            assertEquals(143, second.stop());
        }
        // A clean stop leaves every store's offsets behind, so the restart resumes the local state
        // as it was: no task is taken for corrupted, wiped and restored from its changelogs.
        List<String> troubles = java.nio.file.Files.readAllLines(tmp.resolve("second.log")).stream()
                .filter(line -> line.contains(" ERROR ") || line.contains("corrupted"))
                .toList();
        assertEquals(List.of(), troubles, "the restart's log");
    }

    /**
     * A restore rebuilds the 30-day figures from the {@code agent-daily} changelog, so it must keep
     * what the store keeps (Streams sizes it from the store's retention, plus a day).
     */
    private static void assertDailyCountsOutliveTheirWindows(String bootstrap) throws Exception {
        var topic = new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.TOPIC, "proofline-agent-daily-changelog");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            long retention = Long.parseLong(admin.describeConfigs(List.of(topic))
                    .all()
                    .get()
                    .get(topic)
                    .get("retention.ms")
                    .value());
            assertEquals(
                    dev.proofline.reputation.ReputationTopology.DAILY_RETENTION
                            .plusDays(1)
                            .toMillis(),
                    retention);
        }
    }

    private static State state(String bootstrap, String httpPort, String data) throws Exception {
        Set<String> topics;
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            topics = new HashSet<>(admin.listTopics().names().get());
        }
        assertTrue(topics.containsAll(Set.of("agent-outputs", "receipts", "agent-outputs.dlq")), topics.toString());
        HttpResponse<String> latest = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(
                                        "http://127.0.0.1:" + httpPort + "/subjects/receipts-value/versions/latest"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, latest.statusCode(), latest.body());
        int schemaId = StrictJson.parse(latest.body()).get("id").asInt();
        Process key = new ProcessBuilder(
                        Conformance.repoRoot().resolve("proofline").toString(), "key", "public", "--data-dir", data)
                .redirectErrorStream(false)
                .start();
        JsonNode publicKey = StrictJson.parse(new String(key.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertTrue(key.waitFor(60, TimeUnit.SECONDS));
        return new State(topics, schemaId, publicKey.get("publicKey").asString());
    }
}
