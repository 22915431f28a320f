package dev.proofline.attestor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class VendoredConformanceTest {

    @Test
    void vendoredCopyIsByteForByteTheSharedOriginal() throws IOException {
        Path shared = Conformance.repoRoot().resolve("../shared/conformance").normalize();
        Assumptions.assumeTrue(
                Files.isDirectory(shared),
                "SKIPPED: no ../shared/conformance beside this clone; the vendored copy is used as is");
        List<Path> original = files(shared);
        List<Path> vendored = files(Conformance.dir());
        assertEquals(
                original.stream().map(shared::relativize).toList(),
                vendored.stream().map(Conformance.dir()::relativize).toList(),
                "same files");
        for (Path file : original) {
            assertArrayEquals(
                    Files.readAllBytes(file),
                    Files.readAllBytes(Conformance.dir().resolve(shared.relativize(file))),
                    file.toString());
        }
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).sorted().toList();
        }
    }
}
