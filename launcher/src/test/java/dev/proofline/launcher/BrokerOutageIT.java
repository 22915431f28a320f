package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.Topics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The broker goes away under a running Proofline (a real broker, really stopped): REST callers get
 * the section 6 document 503 broker_unavailable with Retry-After, not a bare 500, and the node
 * still stops instead of waiting out the producer's delivery timeout.
 */
class BrokerOutageIT {
    @TempDir
    Path tmp;

    @Test
    void restCallersGetBrokerUnavailableAndTheNodeStillStops() throws Exception {
        TestKafka kafka = TestKafka.start(tmp.resolve("broker"));
        ProoflineNode node = TestNodes.start(kafka.bootstrapServers(), tmp, Map.of("verify.timeout.seconds", "3"));
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest verify = HttpRequest.newBuilder(URI.create(node.httpUrl() + "/verify/schema"))
                .POST(HttpRequest.BodyPublishers.ofFile(Conformance.file("requests/invoice-final.json")))
                .build();
        try {
            assertEquals(
                    200, http.send(verify, HttpResponse.BodyHandlers.ofString()).statusCode(), "healthy first");

            kafka.close();
            HttpResponse<String> answer = http.send(verify, HttpResponse.BodyHandlers.ofString());
            assertEquals(503, answer.statusCode(), answer.body());
            JsonNode error = StrictJson.parse(answer.body());
            assertEquals("broker_unavailable", error.get("code").asString());
            assertTrue(error.get("retryable").asBoolean());
            assertEquals(
                    "retry_later",
                    error.get("next_actions").get(0).get("action").asString());
            assertEquals("5", answer.headers().firstValue("Retry-After").orElse(""));
            assertTrue(!Files.readString(Conformance.file("requests/invoice-final.json"))
                    .contains(answer.body()));
        } finally {
            // A liveness bound, not a speed measurement: without the bounded close this waited minutes.
            assertTimeoutPreemptively(Duration.ofSeconds(120), node::close);
        }
    }

    /**
     * A request answered 503 broker_unavailable ("not published", retryable) is never verified later:
     * the front door's producer gives up on it at the verify timeout, where it used to keep trying for
     * two minutes and write it once the broker was back, so the caller's retry verified it twice.
     */
    @Test
    void aRequestToldItWasNotPublishedIsNotVerifiedOnceTheBrokerIsBack() throws Exception {
        Path brokerDir = tmp.resolve("broker");
        int kafkaPort = EmbeddedKafkaBroker.freePort("127.0.0.1");
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(brokerDir, "127.0.0.1", kafkaPort);
        String bootstrap = broker.bootstrapServers();
        HttpClient http = HttpClient.newHttpClient();
        try (ProoflineNode node = TestNodes.start(bootstrap, tmp, Map.of("verify.timeout.seconds", "3"))) {
            assertEquals(200, verify(http, node, "outage-before").statusCode(), "healthy first");

            broker.close();
            HttpResponse<String> refused = verify(http, node, "outage-refused");
            assertEquals(503, refused.statusCode(), refused.body());
            assertEquals(
                    "broker_unavailable",
                    StrictJson.parse(refused.body()).get("code").asString());

            broker = EmbeddedKafkaBroker.start(brokerDir, "127.0.0.1", kafkaPort);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            int status = 0;
            for (int attempt = 0; status != 200 && System.nanoTime() < deadline; attempt++) {
                status = verify(http, node, "outage-after-" + attempt).statusCode();
                if (status != 200) {
                    Thread.sleep(1_000);
                }
            }
            assertEquals(200, status, "the node serves again once the broker is back");
            Map<String, Integer> receipts = receiptsByTask(bootstrap, Duration.ofSeconds(8));
            System.out.println("BrokerOutageIT receipts by task: " + receipts);
            assertEquals(1, receipts.getOrDefault("outage-before", 0), receipts.toString());
            assertEquals(
                    0, receipts.getOrDefault("outage-refused", 0), "verified after it was answered 503: " + receipts);
        } finally {
            broker.close();
        }
    }

    private static HttpResponse<String> verify(HttpClient http, ProoflineNode node, String taskId) throws Exception {
        ObjectNode request = (ObjectNode) Conformance.json("requests/invoice-final.json");
        request.put("task_id", taskId);
        return http.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + "/verify/schema"))
                        .POST(HttpRequest.BodyPublishers.ofString(request.toString()))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Every committed receipt's task id, counted, read for {@code quiet} after the last one came. */
    private static Map<String, Integer> receiptsByTask(String bootstrap, Duration quiet) {
        Map<String, Integer> counts = new TreeMap<>();
        Pattern taskId = Pattern.compile("\\\\?\"task_id\\\\?\":\\\\?\"([^\"\\\\]+)");
        try (KafkaConsumer<byte[], byte[]> consumer = FaultHarness.Accounting.consumer(bootstrap)) {
            long until = System.nanoTime() + quiet.toNanos();
            while (System.nanoTime() < until) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(250))) {
                    if (!record.topic().equals(Topics.DEFAULT_RECEIPTS)) {
                        continue;
                    }
                    // The receipt's Avro record holds its signed JSON as plain UTF-8 text.
                    Matcher found = taskId.matcher(new String(record.value(), StandardCharsets.UTF_8));
                    if (found.find()) {
                        counts.merge(found.group(1), 1, Integer::sum);
                    }
                    until = System.nanoTime() + quiet.toNanos();
                }
            }
        }
        return counts;
    }
}
