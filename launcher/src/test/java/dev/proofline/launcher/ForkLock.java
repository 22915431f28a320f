package dev.proofline.launcher;

import dev.proofline.attestor.Conformance;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A lock shared by the test JVMs failsafe runs side by side: work on something they share (an npm
 * install into target/, apt-get) is done by one at a time. A file lock is held per JVM, not per
 * thread, so threads of one JVM also wait on a monitor of the same name first.
 */
final class ForkLock {
    private static final Map<String, Object> MONITORS = new ConcurrentHashMap<>();

    private ForkLock() {}

    static <T> T holding(String name, Callable<T> work) throws Exception {
        synchronized (MONITORS.computeIfAbsent(name, n -> new Object())) {
            Path dir = Files.createDirectories(Conformance.repoRoot().resolve("launcher/target/locks"));
            try (FileChannel channel = FileChannel.open(
                            dir.resolve(name + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock lock = channel.lock()) {
                return work.call();
            }
        }
    }
}
