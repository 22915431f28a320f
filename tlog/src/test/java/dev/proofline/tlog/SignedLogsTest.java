package dev.proofline.tlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SignedLogsTest {
    private static final NoteKey KEY = new NoteKey("example.test/tlog", new byte[32]);
    private static final byte[] LEAF_A = MerkleHashes.leaf(new byte[] {1});
    private static final byte[] LEAF_B = MerkleHashes.leaf(new byte[] {2});

    @TempDir
    Path dir;

    /** The first log with entries is the key's log; another first entry, or an empty log after it, is not. */
    @Test
    void aKeySignsOneLogPerName() {
        SignedLogs logs = SignedLogs.inFile(dir.resolve(SignedLogs.FILE));
        assertEquals(Optional.empty(), logs.admit(KEY, null), "an empty log before any: nothing to fork");
        assertEquals(Optional.empty(), logs.admit(KEY, LEAF_A));
        assertEquals(Optional.empty(), logs.admit(KEY, LEAF_A), "the same log again");
        assertTrue(logs.admit(KEY, LEAF_B).orElseThrow().contains("another log"));
        assertTrue(logs.admit(KEY, null).orElseThrow().contains("empty"));
        NoteKey otherName = new NoteKey("example.test/other", new byte[32]);
        assertEquals(Optional.empty(), logs.admit(otherName, LEAF_B), "a log of another name is its own");
    }

    /** What one process recorded, the next (or another instance on the same keys.dir) knows. */
    @Test
    void theRecordOutlivesTheProcess() throws Exception {
        Path file = dir.resolve(SignedLogs.FILE);
        SignedLogs.inFile(file).admit(KEY, LEAF_A);
        SignedLogs sharing = SignedLogs.inFile(dir.resolve(SignedLogs.FILE));
        SignedLogs.inFile(file).admit(new NoteKey("example.test/other", new byte[32]), LEAF_B);
        assertTrue(sharing.admit(KEY, LEAF_B).isPresent());
        assertEquals(Optional.empty(), sharing.admit(new NoteKey("example.test/other", new byte[32]), LEAF_B));
        assertTrue(SignedLogs.inFile(file).admit(KEY, null).isPresent(), "after a restart too");
        assertEquals(2, Files.readAllLines(file).size(), "one line per log: " + Files.readAllLines(file));
    }

    /** A keys directory the node may not write: what is there is known, nothing is written. */
    @Test
    void aReadOnlyRecordIsReadAndNeverWritten() throws Exception {
        Path file = dir.resolve(SignedLogs.FILE);
        SignedLogs.inFile(file).admit(KEY, LEAF_A);
        String before = Files.readString(file);
        SignedLogs readOnly = SignedLogs.readOnly(file);
        assertTrue(readOnly.admit(KEY, LEAF_B).isPresent());
        NoteKey otherName = new NoteKey("example.test/other", new byte[32]);
        assertEquals(Optional.empty(), readOnly.admit(otherName, LEAF_B));
        assertTrue(readOnly.admit(otherName, LEAF_A).isPresent(), "remembered while it lives");
        assertEquals(before, Files.readString(file));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no file but the record");
        }
    }

    /** The leaf of entry 0 is kept, so a log is known by it long after its first tile left the store. */
    @Test
    void theAppenderKeepsItsFirstLeaf() {
        Map<String, byte[]> map = new HashMap<>();
        LogAppender log = new LogAppender(LogAppender.Store.of(map));
        assertTrue(log.firstLeaf().isEmpty());
        for (int i = 0; i < 600; i++) {
            log.append(new byte[] {(byte) i, 7});
        }
        log.published(log.tilesToPublish()); // the full tiles leave the store
        byte[] restored = new LogAppender(LogAppender.Store.of(map)).firstLeaf().orElseThrow();
        assertArrayEquals(MerkleHashes.leaf(new byte[] {0, 7}), restored);
    }
}
