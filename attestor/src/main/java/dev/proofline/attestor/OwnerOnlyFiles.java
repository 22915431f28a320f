package dev.proofline.attestor;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Files only their owner may read (signing keys, the deployment secret), created whole: written to a
 * temporary file beside the target, then linked into place. Instances starting at the same moment on
 * a shared directory each read a complete file or none, never a half-written one, and of two that
 * create the same file the first wins.
 */
final class OwnerOnlyFiles {
    private OwnerOnlyFiles() {}

    /** Creates {@code file} holding {@code content}; false, changing nothing, when it already exists. */
    static boolean createWhole(Path file, byte[] content) throws IOException {
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
}
