package dev.proofline.tlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The tiled log against a plain recursive RFC 6962 tree, with the sequencer's publish cycle. */
class MerkleLogTest {
    /** A store that is a map; the log's own state, as the sequencer's Streams store holds it. */
    static final class MapStore {
        final Map<String, byte[]> map = new HashMap<>();

        LogAppender.Store store() {
            return LogAppender.Store.of(map);
        }
    }

    static byte[] entry(long i) {
        return MerkleHashes.sha256(ByteBuffer.allocate(8).putLong(i).array());
    }

    /** MTH(D[lo:hi]) straight from RFC 6962, section 2.1. */
    static byte[] reference(List<byte[]> leaves, int lo, int hi) {
        if (hi - lo == 0) {
            return MerkleHashes.emptyRoot();
        }
        if (hi - lo == 1) {
            return MerkleHashes.leaf(leaves.get(lo));
        }
        int k = Integer.highestOneBit(hi - lo - 1);
        return MerkleHashes.node(reference(leaves, lo, lo + k), reference(leaves, lo + k, hi));
    }

    @Test
    void rootsMatchTheRecursiveDefinitionAtEverySizeAcrossTileEdges() {
        MapStore store = new MapStore();
        LogAppender log = new LogAppender(store.store());
        List<byte[]> entries = new ArrayList<>();
        assertArrayEquals(MerkleHashes.emptyRoot(), log.root());
        for (int i = 0; i < 600; i++) {
            entries.add(entry(i));
            assertEquals(i, log.append(entry(i)));
            assertArrayEquals(reference(entries, 0, entries.size()), log.root(), "size " + entries.size());
        }
    }

    @Test
    void publishedTilesProveInclusionAndConsistencyAndTheStoreKeepsOnlyTheEdge() {
        MapStore local = new MapStore();
        Map<String, byte[]> published = new HashMap<>();
        LogAppender log = new LogAppender(local.store());
        Random random = new Random(16);
        List<Long> sizes = new ArrayList<>();
        List<byte[]> roots = new ArrayList<>();
        int total = 70_000; // full tiles at levels 0 and 1, partial ones at 0, 1 and 2
        while (log.size() < total) {
            int burst = 1 + random.nextInt(random.nextBoolean() ? 40 : 3000);
            for (int i = 0; i < burst && log.size() < total; i++) {
                log.append(entry(log.size()));
            }
            Map<String, byte[]> tiles = log.tilesToPublish();
            published.putAll(tiles);
            log.published(tiles);
            sizes.add(log.size());
            roots.add(log.root());
            assertTrue(local.map.size() <= 2 + 2 * 4, "the local store holds the edge only: " + local.map.keySet());
        }
        HashSource hashes = new TileHashes((level, index) -> published.get(new TilePath(level, index, 256).storeKey()));
        byte[] root = MerkleProofs.root(total, hashes);
        assertArrayEquals(log.root(), root);
        assertEquals(MerkleHashes.SIZE * 256, published.get("tile/1/000").length);
        assertEquals(MerkleHashes.SIZE * (70_000 / 256 % 256), published.get("tile/1/001").length);
        assertEquals(MerkleHashes.SIZE, published.get("tile/2/000").length);
        for (int t = 0; t < 200; t++) {
            long index = random.nextInt(total);
            List<byte[]> proof = MerkleProofs.inclusion(index, total, hashes);
            assertTrue(MerkleProofs.verifyInclusion(index, total, MerkleHashes.leaf(entry(index)), proof, root));
            assertFalse(MerkleProofs.verifyInclusion(index, total, MerkleHashes.leaf(entry(index + 1)), proof, root));
            int s = random.nextInt(sizes.size());
            long m = sizes.get(s);
            List<byte[]> consistency = MerkleProofs.consistency(m, total, hashes);
            assertTrue(MerkleProofs.verifyConsistency(m, total, roots.get(s), root, consistency), "from " + m);
            assertFalse(MerkleProofs.verifyConsistency(m, total, roots.get(s), entry(1), consistency));
            if (!consistency.isEmpty()) {
                consistency.set(0, entry(2));
                assertFalse(MerkleProofs.verifyConsistency(m, total, roots.get(s), root, consistency));
            }
        }
    }

    @Test
    void proofsAtSmallSizesAgreeWithTheReference() {
        for (int n = 1; n <= 70; n++) {
            MapStore store = new MapStore();
            LogAppender log = new LogAppender(store.store());
            List<byte[]> entries = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                entries.add(entry(i));
                log.append(entry(i));
            }
            byte[] root = reference(entries, 0, n);
            for (int i = 0; i < n; i++) {
                assertTrue(MerkleProofs.verifyInclusion(
                        i, n, MerkleHashes.leaf(entry(i)), MerkleProofs.inclusion(i, n, log.hashes()), root));
            }
            for (int m = 0; m <= n; m++) {
                byte[] old = reference(entries, 0, m);
                assertTrue(
                        MerkleProofs.verifyConsistency(m, n, old, root, MerkleProofs.consistency(m, n, log.hashes())),
                        m + " to " + n);
            }
        }
    }
}
