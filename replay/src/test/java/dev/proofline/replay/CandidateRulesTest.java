package dev.proofline.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.RequestHashes;
import dev.proofline.attestor.StrictJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class CandidateRulesTest {
    private static final String REQUEST = """
            {"task_id":"t","expected_schema":{"type":"object"},"submitted_output":{"total":5},
             "rules":[{"type":"sum_equals","field":"a[]","equals_field":"total"}],"bounds":{"total":{"min":0}}}""";

    @TempDir
    Path dir;

    @Test
    void anArrayReplacesTheRulesAndDropsTheBounds() throws Exception {
        Path file = Files.writeString(dir.resolve("rules.json"), "[{\"type\":\"required\",\"field\":\"total\"}]");
        CandidateRules candidate = CandidateRules.read(Optional.of(file), Optional.empty());
        ObjectNode replaced = candidate.apply((ObjectNode) StrictJson.parse(REQUEST));
        assertEquals(StrictJson.parse("[{\"type\":\"required\",\"field\":\"total\"}]"), replaced.get("rules"));
        assertTrue(replaced.get("bounds").isNull());
        assertEquals(StrictJson.parse("{\"type\":\"object\"}"), replaced.get("expected_schema"), "schema kept");
        assertEquals(Optional.of(RequestHashes.of(replaced).rulesHash()), candidate.rulesHash());
        assertEquals(Optional.empty(), candidate.schemaHash());
    }

    @Test
    void anObjectReplacesRulesAndBoundsAsTheRulesHashCoversThem() throws Exception {
        Path file = Files.writeString(dir.resolve("rules.json"), "{\"bounds\":{\"total\":{\"max\":3}}}");
        Path schema = Files.writeString(dir.resolve("schema.json"), "{\"type\":\"object\",\"required\":[\"total\"]}");
        CandidateRules candidate = CandidateRules.read(Optional.of(file), Optional.of(schema));
        ObjectNode original = (ObjectNode) StrictJson.parse(REQUEST);
        ObjectNode replaced = candidate.apply(original);
        assertTrue(replaced.get("rules").isNull());
        assertEquals(StrictJson.parse("{\"total\":{\"max\":3}}"), replaced.get("bounds"));
        assertEquals(
                StrictJson.parse("{\"type\":\"object\",\"required\":[\"total\"]}"), replaced.get("expected_schema"));
        assertEquals(StrictJson.parse(REQUEST), original, "the request read is never changed");
        assertTrue(candidate.schemaHash().isPresent());
    }

    @Test
    void anythingElseIsRefused() throws Exception {
        Path other = Files.writeString(dir.resolve("other.json"), "{\"rules\":[],\"enforce_rules\":false}");
        assertThrows(IllegalArgumentException.class, () -> CandidateRules.read(Optional.of(other), Optional.empty()));
        Path broken = Files.writeString(dir.resolve("broken.json"), "[{");
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> CandidateRules.read(Optional.of(broken), Optional.empty()))
                .getMessage()
                .contains("is not JSON"));
        assertThrows(IllegalArgumentException.class, () -> CandidateRules.read(Optional.empty(), Optional.empty()));
    }
}
