package dev.proofline.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * This instance's own name, kept in its data dir, so a restarted instance continues what it
 * counted (its share of the free allowance) instead of starting over.
 */
final class InstanceId {
    static final String FILE = "instance.id";

    private InstanceId() {}

    static String of(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE);
        if (Files.exists(file)) {
            return Files.readString(file, StandardCharsets.US_ASCII).trim();
        }
        String id = UUID.randomUUID().toString();
        Files.createDirectories(dataDir);
        Files.writeString(file, id + "\n", StandardCharsets.US_ASCII);
        return id;
    }
}
