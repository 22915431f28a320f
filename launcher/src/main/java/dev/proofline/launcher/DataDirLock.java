package dev.proofline.launcher;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** One Proofline per data directory: an OS file lock, released by the OS even after a SIGKILL. */
final class DataDirLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static DataDirLock acquire(Path dataDir) throws IOException {
        Files.createDirectories(dataDir);
        Path file = dataDir.resolve("proofline.lock");
        FileChannel channel =
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            String holder = Files.readString(file, StandardCharsets.UTF_8).trim();
            channel.close();
            throw new IllegalStateException("another Proofline" + (holder.isEmpty() ? "" : " (pid " + holder + ")")
                    + " is running on the data directory " + dataDir.toAbsolutePath() + "; stop it or use --data-dir");
        }
        channel.truncate(0);
        channel.write(
                ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)));
        channel.force(true);
        return new DataDirLock(channel, lock);
    }

    @Override
    public void close() throws IOException {
        lock.release();
        channel.close();
    }
}
