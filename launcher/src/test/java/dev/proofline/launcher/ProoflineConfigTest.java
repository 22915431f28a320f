package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProoflineConfigTest {
    @TempDir
    Path tmp;

    @Test
    void flagsOverrideEnvironmentWhichOverridesTheFile() throws Exception {
        Path file = Files.writeString(tmp.resolve("p.properties"), "kafka.port=1\nhttp.port=2\ntopics.partitions=3\n");
        ProoflineConfig config = ProoflineConfig.load(
                Map.of("config", file.toString(), "kafka-port", "100"),
                Map.of("PROOFLINE_KAFKA_PORT", "10", "PROOFLINE_HTTP_PORT", "20", "PROOFLINE_HOME", "/ignored"));
        assertEquals(100, config.getInt("kafka.port", 0));
        assertEquals(20, config.getInt("http.port", 0));
        assertEquals(3, config.getInt("topics.partitions", 0));
        assertEquals(7, config.getInt("max.request.bytes", 7), "unset settings keep their default");
    }

    @Test
    void clientAndStreamsSettingsPassThrough() throws Exception {
        ProoflineConfig config = ProoflineConfig.load(
                Map.of("streams.num.stream.threads", "2", "client.security.protocol", "PLAINTEXT"),
                Map.of("PROOFLINE_STREAMS_COMMIT_INTERVAL_MS", "50"));
        assertEquals(Map.of("num.stream.threads", "2", "commit.interval.ms", "50"), config.withPrefix("streams."));
        assertEquals(Map.of("security.protocol", "PLAINTEXT"), config.withPrefix("client."));
    }

    @Test
    void unknownSettingsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ProoflineConfig.load(Map.of("kafka-prot", "1"), Map.of()));
        assertTrue(e.getMessage().contains("kafka.prot"), e.getMessage());
    }

    @Test
    void readmeDocumentsEverySettingWithItsDefault() throws Exception {
        String readme = Files.readString(Conformance.repoRoot().resolve("README.md"));
        for (ProoflineConfig.Setting setting : ProoflineConfig.SETTINGS) {
            String row = "| `" + setting.key() + "` | " + (setting.defaultValue().isEmpty() ? "" : "`" + setting.defaultValue() + "`")
                    + " | " + setting.description() + " |";
            assertTrue(readme.contains(row), "README lacks the row: " + row);
        }
    }
}
