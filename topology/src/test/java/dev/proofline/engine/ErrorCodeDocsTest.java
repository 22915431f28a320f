package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** The README's error-code table is the enum's: one place decides each code. */
class ErrorCodeDocsTest {
    @Test
    void readmeListsEveryCodeWithItsStatusAndMeaning() throws Exception {
        String readme = Files.readString(Conformance.repoRoot().resolve("README.md"));
        for (ErrorCode code : ErrorCode.values()) {
            String row = "| `" + code.code() + "` | " + code.status() + " | " + code.description() + " |";
            assertTrue(readme.contains(row), "README lacks: " + row);
        }
    }
}
