package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.StrictJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data dir kept across a new Kafka cluster (a broker formatted again, a data dir moved): the
 * node starts on the new cluster and verifies. Its Streams state came from the old one, where the
 * transparency log had grown past the new log's end; Kafka Streams' global thread stopped the
 * whole pipeline in ERROR on that, until the node learned to wipe state kept from another cluster.
 */
class DataDirAcrossClustersIT {
    private static final int FIRST_CLUSTER_RECEIPTS = 6;

    @TempDir
    Path tmp;

    @Test
    void aDataDirKeptFromAnotherClusterStartsAndVerifies() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker-1"));
                ProoflineNode node = TestNodes.start(kafka.bootstrapServers(), tmp)) {
            for (int i = 0; i < FIRST_CLUSTER_RECEIPTS; i++) {
                HttpResponse<String> answer = verify(http, node);
                assertEquals(200, answer.statusCode(), answer.body());
            }
            // The log's global store has read them all: its checkpoint, written when the node stops,
            // is past anything the new cluster's log holds when the node meets it.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            long size = 0;
            while (size < FIRST_CLUSTER_RECEIPTS && System.nanoTime() < deadline) {
                HttpResponse<String> checkpoint = http.send(
                        HttpRequest.newBuilder(URI.create(node.httpUrl() + "/tlog/checkpoint"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                size = checkpoint.statusCode() == 200
                        ? Long.parseLong(checkpoint.body().split("\n")[1])
                        : 0;
                Thread.sleep(200);
            }
            assertTrue(size >= FIRST_CLUSTER_RECEIPTS, "the first cluster's log holds every receipt: " + size);
        }
        assertTrue(Files.exists(tmp.resolve("node").resolve(LocalStateCluster.FILE)));
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker-2"));
                ProoflineNode node = TestNodes.start(kafka.bootstrapServers(), tmp)) {
            HttpResponse<String> answer = verify(http, node);
            assertEquals(200, answer.statusCode(), answer.body());
            assertEquals("pass", StrictJson.parse(answer.body()).get("result").asString());
        }
    }

    private static HttpResponse<String> verify(HttpClient http, ProoflineNode node) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + "/verify/schema"))
                        .POST(HttpRequest.BodyPublishers.ofString(
                                Files.readString(Conformance.file("requests/invoice-final.json"))
                                        .replace("test-seller-invoice-agent", "moved-seller")))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
