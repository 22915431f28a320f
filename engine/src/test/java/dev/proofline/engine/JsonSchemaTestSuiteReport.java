package dev.proofline.engine;

import dev.proofline.attestor.StrictJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs the official JSON Schema Test Suite (draft 2020-12, required and optional/format tests)
 * through the engine when {@code -Dproofline.jsonschema.suite=DIR} points at a checkout of
 * json-schema-org/JSON-Schema-Test-Suite, and prints per file how many cases got the right verdict,
 * a wrong one, or were refused as invalid requests. The suite is not on a package registry and stays
 * outside the repository, so without the property this is skipped; the project's own per-keyword
 * and per-format tests ({@code JsonSchemaConformanceTest}) run always. Remote references
 * ({@code refRemote.json} and others that fetch from localhost:1234) are refused by design and
 * left out.
 */
class JsonSchemaTestSuiteReport {
    private static final List<String> REMOTE = List.of("refRemote.json", "vocabulary.json");

    @Test
    void draft202012() throws Exception {
        String dir = System.getProperty("proofline.jsonschema.suite");
        Assumptions.assumeTrue(dir != null, "SKIPPED: -Dproofline.jsonschema.suite=DIR not given");
        Path root = Path.of(dir, "tests", "draft2020-12");
        EngineFixture fixture = new EngineFixture();
        Map<String, int[]> byFile = new TreeMap<>();
        List<String> wrong = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        for (Path file : files) {
            String name = root.relativize(file).toString();
            if (REMOTE.contains(file.getFileName().toString())
                    || (name.startsWith("optional")
                            && !name.startsWith("optional/format")
                            && !name.contains("regex"))) {
                continue;
            }
            int[] counts = byFile.computeIfAbsent(name, n -> new int[3]); // right, wrong, refused
            for (JsonNode group : StrictJson.parse(Files.readAllBytes(file))) {
                for (JsonNode test : group.get("tests")) {
                    ObjectNode request = StrictJson.NODES.objectNode();
                    request.put("task_id", "suite");
                    request.set("expected_schema", group.get("schema"));
                    request.set("submitted_output", test.get("data"));
                    ParseOutcome outcome = fixture.parse(request);
                    if (outcome instanceof ParseOutcome.Invalid invalid) {
                        counts[2]++;
                        wrong.add(name + " | " + group.get("description").asString() + " | refused: "
                                + invalid.error()
                                        .toJson()
                                        .get("fields")
                                        .get(0)
                                        .get("problem")
                                        .asString());
                        continue;
                    }
                    boolean passed = fixture.engine
                            .verify(((ParseOutcome.Valid) outcome).request(), EngineFixture.ID, EngineFixture.AT)
                            .result()
                            .equals("pass");
                    if (passed == test.get("valid").asBoolean()) {
                        counts[0]++;
                    } else {
                        counts[1]++;
                        wrong.add(name + " | " + group.get("description").asString() + " | "
                                + test.get("description").asString() + " | got " + (passed ? "pass" : "fail"));
                    }
                }
            }
        }
        int[] total = new int[3];
        byFile.forEach((name, c) -> {
            System.out.printf("%-45s right %4d  wrong %3d  refused %3d%n", name, c[0], c[1], c[2]);
            for (int i = 0; i < 3; i++) {
                total[i] += c[i];
            }
        });
        System.out.printf("TOTAL right %d wrong %d refused %d%n", total[0], total[1], total[2]);
        wrong.forEach(w -> System.out.println("  " + w));
    }
}
