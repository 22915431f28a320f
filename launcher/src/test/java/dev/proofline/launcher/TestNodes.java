package dev.proofline.launcher;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;

/** A Proofline in the test's JVM on a given broker: HTTP on a free port, everything under {@code dir}. */
final class TestNodes {
    private TestNodes() {}

    static ProoflineNode start(String bootstrapServers, Path dir) throws Exception {
        return start(bootstrapServers, dir, Map.of());
    }

    /** The same, with more settings ({@code verify.timeout.seconds}, ...). */
    static ProoflineNode start(String bootstrapServers, Path dir, Map<String, String> settings) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(settings);
        all.put("bootstrap.servers", bootstrapServers);
        all.put("http.port", "0");
        all.put("data.dir", dir.resolve("node").toString());
        return ProoflineNode.start(ProoflineConfig.load(all, Map.of()), dir.resolve("unused"));
    }

    /** What {@code GET /metrics} answers the node's operator: Prometheus text. */
    static String metrics(ProoflineNode node) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(node.httpUrl() + "/metrics"))
                                .header(
                                        "Authorization",
                                        "Bearer " + node.operatorToken().orElseThrow())
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }
}
