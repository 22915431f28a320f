package dev.proofline.tlog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The logs a key has signed checkpoints of, so that it never signs a second, different log under
 * the same name ({@code docs/tlog.md}). A log that starts over (its Kafka state reset, a new
 * {@code application.id}) would otherwise sign the empty tree and then a new history under the
 * origin and key the world already trusts: a fork, and new bytes under tile URLs served as
 * immutable. C2SP tlog-checkpoint: "A log MUST not sign any checkpoint which is inconsistent with
 * any checkpoint it previously signed."
 *
 * <p>A log is known by its key (the verifier key names the origin and the key) and its first
 * entry's leaf hash. That hash is the same after a crash (the sequencer replays the same input in
 * the same order), and differs for a log that started again (its receipts are new). The record
 * lives beside the deployment secret the key is derived from, one line per log: the verifier key
 * and the leaf hash in hex.
 */
public final class SignedLogs {
    /** The file's name in the keys directory. */
    public static final String FILE = "tlog-signed-logs";

    private final Path file; // null: kept in memory only
    private final Map<String, String> firstLeafByKey = new LinkedHashMap<>();

    private SignedLogs(Path file) {
        this.file = file;
    }

    /** The record kept in {@code file}, read now if it exists. */
    public static SignedLogs inFile(Path file) {
        return read(file, new SignedLogs(file));
    }

    /**
     * The record in {@code file}, if it exists, and what is signed from now on in memory only: for a
     * keys directory this process may not write.
     */
    public static SignedLogs readOnly(Path file) {
        return read(file, inMemory());
    }

    private static SignedLogs read(Path file, SignedLogs logs) {
        if (Files.isRegularFile(file)) {
            try {
                for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
                    String[] fields = line.trim().split(" ");
                    if (fields.length == 2) {
                        logs.firstLeafByKey.putIfAbsent(fields[0], fields[1]);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
        return logs;
    }

    /** A record that lives as long as this object: for tests and for nodes with nowhere to keep it. */
    public static SignedLogs inMemory() {
        return new SignedLogs(null);
    }

    /**
     * Whether {@code key} may sign a checkpoint of the log whose first leaf hash is {@code firstLeaf}
     * ({@code null}: the log is empty). The first checkpoint with entries records the log. Returns
     * why not, or empty if it may.
     *
     * @throws UncheckedIOException if the log could not be recorded; it is then not signed either
     */
    public synchronized Optional<String> admit(NoteKey key, byte[] firstLeaf) {
        String known = firstLeafByKey.get(key.verifierKey());
        if (known == null && file != null) {
            read(file, this); // another instance sharing the keys directory may have signed it since
            known = firstLeafByKey.get(key.verifierKey());
        }
        if (firstLeaf == null) {
            return known == null
                    ? Optional.empty()
                    : Optional.of("this key has signed checkpoints of a log with entries under the origin " + key.name()
                            + ", and this log is empty: it is a new log under the same name");
        }
        String leaf = HexFormat.of().formatHex(firstLeaf);
        if (known == null) {
            firstLeafByKey.put(key.verifierKey(), leaf);
            try {
                save();
            } catch (IOException e) {
                firstLeafByKey.remove(key.verifierKey());
                throw new UncheckedIOException("cannot record the log in " + file, e);
            }
            return Optional.empty();
        }
        return known.equals(leaf)
                ? Optional.empty()
                : Optional.of("this key has signed checkpoints of another log under the origin " + key.name()
                        + " (its first entry differs): this log is a new one under the same name");
    }

    /** Written whole beside the file and moved over it: a crash leaves the old record or the new one. */
    private void save() throws IOException {
        if (file == null) {
            return;
        }
        StringBuilder text = new StringBuilder();
        firstLeafByKey.forEach(
                (key, leaf) -> text.append(key).append(' ').append(leaf).append('\n'));
        // A name of its own: two instances sharing the keys directory never write into one file.
        Path temporary = Files.createTempFile(file.toAbsolutePath().getParent(), "." + FILE, ".tmp");
        try {
            Files.writeString(temporary, text, StandardCharsets.US_ASCII);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
