package dev.proofline.tlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Signed notes, checkpoints, tile paths and tlog-proofs as the C2SP specifications write them. */
class FormatsTest {
    private static final byte[] SEED = new byte[32];

    @Test
    void theSignedNoteSpecificationsExampleVerifies() {
        NoteVerifier verifier =
                NoteVerifier.parse("example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k");
        String note = "This is an example message.\n\n\u2014 example.com/foo "
                + "Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n";
        assertEquals("This is an example message.\n", verifier.open(note));
        assertThrows(
                IllegalArgumentException.class,
                () -> verifier.open(note.replace("example message", "exemple message")));
    }

    @Test
    void ourNotesVerifyOtherKeysAreIgnoredAndForgeriesRefused() {
        NoteKey key = new NoteKey("proofline.example/proofline", SEED);
        NoteKey other = new NoteKey("witness.example", new byte[] {
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
            30, 31, 32
        });
        assertTrue(key.verifierKey().startsWith("proofline.example/proofline+"));
        Checkpoint checkpoint = new Checkpoint(key.name(), 5, MerkleHashes.sha256(new byte[] {1}));
        String note = key.sign(checkpoint.text());
        assertEquals(5, Checkpoint.open(note, key.verifier()).size());
        String cosigned =
                note + other.sign(checkpoint.text()).substring(checkpoint.text().length() + 1);
        assertEquals(5, Checkpoint.open(cosigned, key.verifier()).size(), "a witness's line is ignored");
        assertThrows(IllegalArgumentException.class, () -> key.verifier().open(other.sign(checkpoint.text())));
        assertThrows(IllegalArgumentException.class, () -> key.verifier().open(note.replace("\n5\n", "\n6\n")));
        assertThrows(IllegalArgumentException.class, () -> Checkpoint.parse("origin\n05\nAAAA\n"));
        // Extension lines are opaque and optional (tlog-checkpoint): a reader skips them.
        String extended = checkpoint.text() + "witness-hint 1\nanother extension\n";
        assertEquals(5, Checkpoint.open(key.sign(extended), key.verifier()).size());
        assertEquals(checkpoint.text(), Checkpoint.parse(extended).text());
        assertThrows(IllegalArgumentException.class, () -> Checkpoint.parse(checkpoint.text() + "\n"));
        assertThrows(IllegalArgumentException.class, () -> Checkpoint.parse("origin\n5\n"));
    }

    /** What Go's {@code sumdb/note} refuses is refused here too, always as a parse error. */
    @Test
    void malformedNotesAndKeysAreRefusedAsGoRefusesThem() {
        NoteKey key = new NoteKey("log.example", SEED);
        NoteVerifier verifier = key.verifier();
        String text = "log.example\n1\n" + java.util.Base64.getEncoder().encodeToString(SEED) + "\n";
        String note = key.sign(text);
        String line = note.substring(text.length() + 1);
        String signature = line.substring(line.lastIndexOf(' ') + 1, line.length() - 1);
        assertThrows(IllegalArgumentException.class, () -> verifier.open(text + "\n"), "no signature line at all");
        assertThrows(IllegalArgumentException.class, () -> verifier.open(text + "\n\n"));
        assertThrows(
                IllegalArgumentException.class,
                () -> verifier.open(note.replace(signature, signature.replace("=", ""))),
                "base64 without its padding");
        assertThrows(
                IllegalArgumentException.class,
                () -> verifier.open(note + "\u2014 other.example AAAAAA==\n"),
                "another key's line of four bytes: a key id and no signature");
        assertThrows(
                IllegalArgumentException.class,
                () -> Checkpoint.parse("log.example\n1\n"
                        + java.util.Base64.getEncoder().withoutPadding().encodeToString(SEED) + "\n"));
        String vkey = key.verifierKey();
        String id = vkey.split("\\+")[1];
        assertThrows(IllegalArgumentException.class, () -> NoteVerifier.parse(vkey.replace(id, "-" + id.substring(1))));
        assertThrows(IllegalArgumentException.class, () -> NoteVerifier.parse(vkey.substring(0, vkey.length() - 1)));
        assertThrows(IllegalArgumentException.class, () -> new NoteKey("log\u0085example", SEED), "NEL is a space");
        assertThrows(IllegalArgumentException.class, () -> new NoteKey("log\u00a0example", SEED));
        assertEquals(
                text,
                NoteVerifier.parse(vkey.replace(id, id.toUpperCase(java.util.Locale.ROOT)))
                        .open(note));
    }

    @Test
    void everyVerifierKeyParsesBackWhateverItsBase64Holds() {
        for (int i = 0; i < 64; i++) {
            byte[] seed = MerkleHashes.sha256(new byte[] {(byte) i});
            NoteKey key = new NoteKey("log.example/" + i, seed);
            String text =
                    "log.example/" + i + "\n1\n" + java.util.Base64.getEncoder().encodeToString(seed) + "\n";
            assertEquals(text, NoteVerifier.parse(key.verifierKey()).open(key.sign(text)), key.verifierKey());
        }
    }

    @Test
    void aTileNamesTheSmallestTreeThatHasIt() {
        assertEquals(1, new TilePath(0, 0, 1).treeSizeNeeded());
        assertEquals(256, new TilePath(0, 0, 256).treeSizeNeeded());
        assertEquals(3 * 256 + 5, new TilePath(TilePath.ENTRIES, 3, 5).treeSizeNeeded());
        assertEquals(3 * 256 + 5, new TilePath(0, 3, 5).treeSizeNeeded());
        // Level 1: each hash covers 256 entries, so two of them need 512.
        assertEquals(512, new TilePath(1, 0, 2).treeSizeNeeded());
        assertEquals((256L + 1) * 256 * 256, new TilePath(2, 1, 1).treeSizeNeeded());
        assertEquals(Long.MAX_VALUE, new TilePath(63, 0, 1).treeSizeNeeded());
        assertEquals(Long.MAX_VALUE, new TilePath(0, Long.MAX_VALUE, 256).treeSizeNeeded());
    }

    @Test
    void tilePathsFollowTheSpecification() {
        assertEquals("tile/0/x001/x234/067", new TilePath(0, 1234067, 256).path());
        assertEquals("tile/entries/005.p/7", new TilePath(TilePath.ENTRIES, 5, 7).path());
        assertEquals("tile/2/000.p/1", new TilePath(2, 0, 1).path());
        assertEquals(new TilePath(0, 1234067, 256), TilePath.parse("tile/0/x001/x234/067"));
        assertEquals(new TilePath(TilePath.ENTRIES, 1000, 17), TilePath.parse("tile/entries/x001/000.p/17"));
        assertEquals("tile/1/x999/x000/000", new TilePath(1, 999_000_000, 256).path());
        assertEquals("tile/3/999", new TilePath(3, 999, 256).path());
        assertEquals("tile/3/x001/000.p/255", new TilePath(3, 1000, 255).path());
        assertEquals("tile/63/x009/x223/x372/x036/x854/x775/807", new TilePath(63, Long.MAX_VALUE, 256).path());
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 10_000; i++) {
            long index = (random.nextLong() >>> 1) >>> random.nextInt(63);
            TilePath tile = new TilePath(random.nextInt(65) - 1, index, 1 + random.nextInt(256));
            assertEquals(tile, TilePath.parse(tile.path()), tile.path());
        }
        for (String bad : List.of(
                "tile/01/000",
                "tile/0/x000/001",
                "tile/0/000.p/256",
                "tile/0/000.p/0",
                "tile/0/0",
                "tile/64/000",
                "tile/0/000.p/010",
                "tile/8/0/000",
                "tile/0/001/002",
                // Beyond a long: 2^64 (would wrap to tile 0), 2^63 (would turn negative), the most seven elements
                // write.
                "tile/0/x018/x446/x744/x073/x709/x551/616",
                "tile/0/x009/x223/x372/x036/x854/x775/808",
                "tile/0/x999/x999/x999/x999/x999/x999/999")) {
            assertNull(TilePath.parse(bad), bad);
        }
    }

    @Test
    void aTlogProofRoundTripsAndVerifiesOffline() {
        MerkleLogTest.MapStore store = new MerkleLogTest.MapStore();
        LogAppender log = new LogAppender(store.store());
        for (int i = 0; i < 300; i++) {
            log.append(MerkleLogTest.entry(i));
        }
        NoteKey key = new NoteKey("example.org/proofline", SEED);
        String note = key.sign(new Checkpoint(key.name(), log.size(), log.root()).text());
        InclusionProof proof = new InclusionProof(257, MerkleProofs.inclusion(257, 300, log.hashes()), note);
        String text = proof.text();
        assertTrue(text.startsWith("c2sp.org/tlog-proof@v1\nindex 257\n"));
        InclusionProof parsed = InclusionProof.parse(text);
        assertEquals(text, parsed.text());
        assertEquals(
                300, parsed.verify(MerkleLogTest.entry(257), key.verifier()).size());
        assertArrayEquals(
                log.root(),
                parsed.verify(MerkleLogTest.entry(257), key.verifier()).root());
        assertThrows(IllegalArgumentException.class, () -> parsed.verify(MerkleLogTest.entry(256), key.verifier()));
        assertThrows(
                IllegalArgumentException.class, () -> InclusionProof.parse(text.replace("index 257", "index 0257")));
    }
}
