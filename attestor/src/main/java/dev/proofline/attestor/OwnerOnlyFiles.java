package dev.proofline.attestor;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Files only their owner may read (signing keys, the deployment secret, the operator token), put in
 * place whole: written to a temporary file beside the target, then linked or moved there. Instances
 * starting at the same moment on a shared directory each read a complete file or none, never a
 * half-written one.
 */
public final class OwnerOnlyFiles {
    private OwnerOnlyFiles() {}

    /**
     * Creates {@code file} holding {@code content}; false, changing nothing, when it already exists:
     * of two that create the same file, the first wins.
     */
    public static boolean createWhole(Path file, byte[] content) throws IOException {
        Path temporary = temporaryBeside(file, content);
        try {
            try {
                Files.createLink(file, temporary); // link(2): atomic, and fails if the file exists
            } catch (FileAlreadyExistsException e) {
                throw e;
            } catch (UnsupportedOperationException | FileSystemException noHardLinks) {
                // vfat, SMB and some FUSE mounts: a move, which fails too if the file exists
                Files.move(temporary, file);
            }
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** Puts {@code content} in {@code file} in one step, replacing what it held. */
    public static void replaceWhole(Path file, byte[] content) throws IOException {
        Path temporary = temporaryBeside(file, content);
        try {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** A new file readable by its owner only, in the target's directory (so a move is a rename), holding {@code content}. */
    private static Path temporaryBeside(Path file, byte[] content) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        Path temporary;
        try {
            temporary = Files.createTempFile(
                    directory,
                    ".new",
                    ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            temporary = Files.createTempFile(directory, ".new", ".tmp"); // not POSIX: the platform's defaults
        }
        try {
            Files.write(temporary, content);
            return temporary;
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
    }
}
