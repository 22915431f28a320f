package dev.proofline.launcher;

import java.nio.file.Path;
import java.util.Map;

/** A Proofline in the test's JVM on a given broker: HTTP on a free port, everything under {@code dir}. */
final class TestNodes {
    private TestNodes() {
    }

    static ProoflineNode start(String bootstrapServers, Path dir) throws Exception {
        return ProoflineNode.start(ProoflineConfig.load(Map.of("bootstrap.servers", bootstrapServers,
                "http.port", "0", "data.dir", dir.resolve("node").toString()), Map.of()), dir.resolve("unused"));
    }
}
