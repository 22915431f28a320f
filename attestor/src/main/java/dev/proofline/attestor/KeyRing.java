package dev.proofline.attestor;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Every signing key a Proofline instance has ever had. It signs with the newest and verifies with
 * any, so rotating a key never makes an old receipt unverifiable; retired keys stay on disk.
 *
 * <p>On disk a ring is a directory of {@link KeyFiles PEM files}; versions read {@code v<N>-<date>},
 * and the highest N is the newest. Keys whose version has no generation number sort first.
 */
public final class KeyRing {
    private static final Pattern GENERATION = Pattern.compile("^v(\\d+)-");

    private final Path directory;
    private final List<SigningKey> keys; // oldest first

    private KeyRing(Path directory, List<SigningKey> keys) {
        this.directory = directory;
        this.keys = List.copyOf(keys);
    }

    /** A ring of one key, for {@code --key FILE}. */
    public static KeyRing of(SigningKey key) {
        return new KeyRing(null, List.of(key));
    }

    /** Opens the ring in a directory, creating the directory and a first key when there is none. */
    public static KeyRing openOrCreate(Path directory, Clock clock) throws IOException {
        Files.createDirectories(directory);
        KeyRing ring = read(directory);
        if (!ring.keys.isEmpty()) {
            return ring;
        }
        try {
            return ring.rotate(clock);
        } catch (FileAlreadyExistsException e) {
            // Another instance sharing the directory made the first key at the same moment: its key is the one.
            return read(directory);
        }
    }

    private static KeyRing read(Path directory) throws IOException {
        List<SigningKey> keys = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".pem")).sorted().toList()) {
                keys.add(KeyFiles.read(file));
            }
        }
        keys.sort(Comparator.comparingLong(KeyRing::generation).thenComparing(SigningKey::version));
        return new KeyRing(directory, keys);
    }

    /** Adds a new newest key, written to the ring's directory before it is used. */
    public KeyRing rotate(Clock clock) throws IOException {
        if (directory == null) {
            throw new IllegalStateException("a single-key ring has no directory to rotate in");
        }
        long next = keys.stream().mapToLong(KeyRing::generation).max().orElse(0) + 1;
        String version = "v" + next + "-" + LocalDate.now(clock);
        SigningKey key = SigningKey.generate(version, new SecureRandom());
        KeyFiles.write(directory.resolve(version + ".pem"), key);
        List<SigningKey> rotated = new ArrayList<>(keys);
        rotated.add(key);
        return new KeyRing(directory, rotated);
    }

    public SigningKey signingKey() {
        return keys.get(keys.size() - 1);
    }

    /** Every key ever used, oldest first, as the agent-card publishes them. */
    public List<PublishedKey> publishedKeys() {
        return keys.stream().map(SigningKey::published).toList();
    }

    public TrustedKeys trustedKeys() {
        return TrustedKeys.of(publishedKeys());
    }

    private static long generation(SigningKey key) {
        Matcher m = GENERATION.matcher(key.version());
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
