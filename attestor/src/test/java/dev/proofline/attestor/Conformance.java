package dev.proofline.attestor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import tools.jackson.databind.JsonNode;

/**
 * The conformance data: receipts signed by the reference service, the requests behind them and the
 * expected hashes. The repository keeps a byte-for-byte copy in {@code conformance/} so that a clone
 * tests on its own; {@link VendoredConformanceTest} checks the copy against the shared original.
 */
public final class Conformance {
    private Conformance() {}

    public static Path repoRoot() {
        String configured = System.getProperty("proofline.repo.root");
        Path start = configured != null ? Paths.get(configured) : Paths.get("").toAbsolutePath();
        for (Path dir = start.toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("conformance/expected.json"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no conformance/expected.json above " + start);
    }

    public static Path dir() {
        return repoRoot().resolve("conformance");
    }

    public static Path file(String relative) {
        return dir().resolve(relative);
    }

    public static JsonNode json(String relative) {
        try {
            return StrictJson.parse(file(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode expected() {
        return json("expected.json");
    }

    /** The reference service's public key, trusted under its own version. */
    public static TrustedKeys referenceKeys() {
        JsonNode key = expected().get("reference_public_key");
        return TrustedKeys.of(java.util.List.of(new PublishedKey(
                key.get("keyVersion").asString(),
                key.get("algorithm").asString(),
                key.get("publicKey").asString())));
    }
}
