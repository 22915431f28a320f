package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.Topics;
import dev.proofline.topology.Receipts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A receipts topic an operator made before Proofline, with room for small receipts only. A receipt
 * over its limit would be refused by the broker, fail its transaction, and its request would be
 * verified and refused again for ever, holding up every request behind it on that partition. The
 * request gets a dead letter instead (500 verification_failed), and the pipeline goes on.
 */
class SmallReceiptsTopicIT {
    /** Room for the conformance invoice's receipt, not for one that lists many errors. */
    private static final int LIMIT = Receipts.LARGEST_RECORD_BYTES / 30 + 8 * 1024;

    @TempDir
    Path tmp;

    @Test
    void aReceiptTheTopicWouldRefuseIsDeadLetteredAndThePipelineGoesOn() throws Exception {
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"))) {
            System.out.println("SmallReceiptsTopicIT on " + kafka.description());
            try (Admin admin =
                    Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(Topics.defaults().receipts(), Optional.of(3), Optional.empty())
                                .configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(LIMIT)))))
                        .all()
                        .get();
            }
            try (ProoflineNode node = TestNodes.start(kafka.bootstrapServers(), tmp)) {
                HttpClient http = HttpClient.newHttpClient();
                ObjectNode small = (ObjectNode) Conformance.json("requests/invoice-final.json");
                small.put("agent_id", "small-receipts-seller");
                HttpResponse<String> first = verify(http, node, small.toString());
                assertEquals(200, first.statusCode(), first.body());

                // Each of 40 long keys the schema refuses is an error, a detail and a hint in the receipt.
                ObjectNode output = StrictJson.NODES.objectNode();
                for (int i = 0; i < 40; i++) {
                    output.put("k" + i + "-" + "x".repeat(1_000), i);
                }
                ObjectNode big = StrictJson.NODES.objectNode();
                big.put("task_id", "many-errors");
                big.put("agent_id", "small-receipts-seller");
                big.set("expected_schema", StrictJson.parse("{\"type\":\"object\",\"additionalProperties\":false}"));
                big.set("submitted_output", output);
                HttpResponse<String> refused = verify(http, node, big.toString());
                assertEquals(500, refused.statusCode(), refused.body());
                JsonNode error = StrictJson.parse(refused.body());
                assertEquals("verification_failed", error.get("code").asString());
                String metrics = TestNodes.metrics(node);
                assertTrue(
                        metrics.contains("proofline_receipts_too_large_total 1.0"),
                        "told apart from the verifier's own failures: "
                                + metrics.lines()
                                        .filter(l -> l.startsWith("proofline_receipts"))
                                        .toList());

                // The same partition (same agent) goes on: with the receipt written, it would be stuck.
                for (int i = 0; i < 3; i++) {
                    small.put("task_id", "after-" + i);
                    HttpResponse<String> next = verify(http, node, small.toString());
                    assertEquals(200, next.statusCode(), next.body());
                }
            }
        }
    }

    private static HttpResponse<String> verify(HttpClient http, ProoflineNode node, String body) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + "/verify/schema"))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
