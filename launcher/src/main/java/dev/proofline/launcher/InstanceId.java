package dev.proofline.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

/**
 * This instance's own name, kept in its data dir, so a restarted instance continues what it
 * counted (its share of the free allowance) instead of starting over, and takes its own place in
 * the Streams group.
 */
final class InstanceId {
    static final String FILE = "instance.id";

    private InstanceId() {}

    static String of(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE);
        if (Files.exists(file)) {
            String kept = Files.readString(file, StandardCharsets.US_ASCII).trim();
            if (!kept.isEmpty()) {
                return kept;
            }
        }
        // Written whole or not at all: a crash mid-write must not leave a blank name that another
        // instance in the same state would share (it also names this instance in the Streams group).
        String id = UUID.randomUUID().toString();
        Files.createDirectories(dataDir);
        Path written = Files.createTempFile(dataDir, FILE, ".tmp");
        Files.writeString(written, id + "\n", StandardCharsets.US_ASCII);
        Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return id;
    }
}
