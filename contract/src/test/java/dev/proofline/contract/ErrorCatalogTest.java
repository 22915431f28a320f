package dev.proofline.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The error-code table of {@code docs/errors.md} is the enum's, row for row: one place decides each
 * code. When a code changes, {@code mvn test -pl contract -Dproofline.docs.write=true} rewrites the
 * table from the enum.
 */
class ErrorCatalogTest {
    static final String BEGIN = "<!-- error-codes:begin (generated from ErrorCode; ErrorCatalogTest checks it) -->";
    static final String END = "<!-- error-codes:end -->";

    @Test
    void docsListEveryCodeAsTheEnumDefinesIt() throws Exception {
        String doc = Files.readString(repoRoot().resolve("docs/errors.md"));
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertTrue(begin >= 0 && end > begin, "docs/errors.md lacks the markers " + BEGIN + " ... " + END);
        String documented = doc.substring(begin + BEGIN.length(), end).strip();
        if (Boolean.getBoolean("proofline.docs.write") && !documented.equals(table())) {
            Files.writeString(
                    repoRoot().resolve("docs/errors.md"),
                    doc.substring(0, begin + BEGIN.length()) + "\n" + table() + "\n" + doc.substring(end));
            return;
        }
        assertEquals(table(), documented, "docs/errors.md's table differs from ErrorCode");
    }

    @Test
    void retryableCodesSayHowLongToWaitAndOthersDoNot() {
        for (ErrorCode code : ErrorCode.values()) {
            boolean says = code.retryAfterSeconds() != null && code.retryAfterSeconds() > 0;
            assertEquals(code.retryable(), says, code.code());
            assertEquals(code, ErrorCode.fromCode(code.code()));
        }
    }

    static String table() {
        Stream<String> rows = Stream.of(ErrorCode.values())
                .map(c -> "| `" + c.code() + "` | " + c.status() + " | " + (c.retryable() ? "yes" : "no") + " | "
                        + (c.retryable() ? c.retryAfterSeconds().toString() : "–") + " | `" + c.nextAction() + "` | "
                        + c.description() + " |");
        return Stream.concat(
                        Stream.of(
                                "| code | HTTP status | retryable | retry_after (s) | next action | meaning |",
                                "|---|---|---|---|---|---|"),
                        rows)
                .collect(Collectors.joining("\n"));
    }

    static Path repoRoot() {
        String root = System.getProperty("proofline.repo.root");
        return root != null ? Path.of(root) : Path.of("..");
    }
}
