package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.StrictJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

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
}
