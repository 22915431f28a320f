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
        assertEquals(100, Settings.KAFKA_PORT.in(config));
        assertEquals(20, Settings.HTTP_PORT.in(config));
        assertEquals(3, Settings.TOPICS_PARTITIONS.in(config));
        assertEquals(1048576, Settings.MAX_REQUEST_BYTES.in(config), "unset settings keep their default");
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
    void theLogsOriginIsItsUrlPrefixWithoutSchemeUnlessSet() throws Exception {
        ProoflineSettings.TransparencyLogSettings byDefault = ProoflineSettings.resolve(
                        ProoflineConfig.load(Map.of(), Map.of()), tmp)
                .transparencyLog();
        assertEquals("verify.example.com/tlog", byDefault.originFor("https://verify.example.com"));
        assertEquals(
                "127.0.0.1/tlog",
                byDefault.originFor("http://127.0.0.1:8080/"),
                "no port: instances of one deployment on one host share the log's name");
        assertEquals("proofline_app/tlog", byDefault.originFor("http://proofline_app:8080"), "a Docker service name");
        assertEquals(
                "example.org/proofline/tlog",
                byDefault.originFor("https://who:secret@example.org/proofline//"),
                "the path stays, user information never enters it");
        assertThrows(IllegalArgumentException.class, () -> byDefault.originFor("no host here"));
        assertEquals(
                "log.example/v1",
                ProoflineSettings.resolve(ProoflineConfig.load(Map.of("tlog.origin", "log.example/v1"), Map.of()), tmp)
                        .transparencyLog()
                        .originFor("https://verify.example.com"));
    }

    @Test
    void unknownSettingsAreRefused() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> ProoflineConfig.load(Map.of("kafka-prot", "1"), Map.of()));
        assertTrue(e.getMessage().contains("kafka.prot"), e.getMessage());
    }

    @Test
    void settingsResolveOnceIntoTypedValuesWithDerivedDefaults() throws Exception {
        ProoflineSettings embedded = ProoflineSettings.resolve(
                ProoflineConfig.load(Map.of("verify-timeout-seconds", "3", "topics.scores", "scores-v2"), Map.of()),
                tmp);
        assertEquals(tmp.resolve("keys"), embedded.keysDir(), "keys live under the data dir");
        assertEquals(java.util.Optional.of((short) 1), embedded.replicationFactor(), "one broker, one replica");
        assertEquals(java.time.Duration.ofSeconds(3), embedded.verifyTimeout());
        assertEquals("scores-v2", embedded.topics().scores());
        assertEquals("agent-outputs", embedded.topics().input());
        assertTrue(embedded.embeddedBroker());

        ProoflineSettings external = ProoflineSettings.resolve(
                ProoflineConfig.load(
                        Map.of("bootstrap.servers", "k1:9092", "client.security.protocol", "SSL"), Map.of()),
                tmp);
        assertTrue(external.replicationFactor().isEmpty(), "a cluster's own default applies");
        assertEquals(Map.of("security.protocol", "SSL"), external.clientOverrides());
    }

    @Test
    void badValuesAreRefusedNamingTheSetting() throws Exception {
        ProoflineConfig config = ProoflineConfig.load(Map.of("http.port", "eighty", "kafka.port", "70000"), Map.of());
        IllegalArgumentException notNumber =
                assertThrows(IllegalArgumentException.class, () -> Settings.HTTP_PORT.in(config));
        assertTrue(notNumber.getMessage().startsWith("http.port"), notNumber.getMessage());
        IllegalArgumentException outOfRange =
                assertThrows(IllegalArgumentException.class, () -> Settings.KAFKA_PORT.in(config));
        assertTrue(outOfRange.getMessage().contains("between 0 and 65535"), outOfRange.getMessage());
    }

    @Test
    void readmeTableIsTheDeclarationRowForRow() throws Exception {
        // The README's table is generated from Settings.ALL: every setting, in order, nothing else
        // (the client.* and streams.* pass-through rows follow it). Paste the expected text to update it.
        String readme = Files.readString(Conformance.repoRoot().resolve("README.md"));
        String header = "| setting | default | meaning |\n|---|---|---|\n";
        int start = readme.indexOf(header) + header.length();
        int end = readme.indexOf("| `client.<name>` |", start);
        assertTrue(start > header.length() && end > start, "README lacks the configuration table");
        String expected = Settings.ALL.stream()
                .map(s -> "| `" + s.key() + "` | " + (s.shownDefault().isEmpty() ? "" : "`" + s.shownDefault() + "`")
                        + " | " + s.description() + " |\n")
                .collect(java.util.stream.Collectors.joining());
        assertEquals(expected, readme.substring(start, end), "README's configuration table differs from Settings.ALL");
    }

    /** The environment is shared: a stray PROOFLINE_ variable is passed over; a flag that names nothing is not. */
    @org.junit.jupiter.api.Test
    void aVariableThatNamesNoSettingIsPassedOverAndReported() throws Exception {
        Map<String, String> env = Map.of(
                "PROOFLINE_IT_KAFKA", "testcontainers", "PROOFLINE_HTTP_PORT", "9999", "PROOFLINE_CONFORMANCE", "x");
        ProoflineConfig config = ProoflineConfig.load(Map.of(), env);
        assertEquals(9999, config.get(Settings.HTTP_PORT).orElseThrow());
        assertEquals(
                java.util.List.of("PROOFLINE_CONFORMANCE", "PROOFLINE_IT_KAFKA"),
                ProoflineConfig.unknownVariables(env));
        assertThrows(IllegalArgumentException.class, () -> ProoflineConfig.load(Map.of("it-kafka", "x"), Map.of()));
    }
}
