package dev.proofline.tlog;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Appends entries to a tiled Merkle log kept in a key-value store: the level-0 hash of each entry
 * goes into the current partial tile, a tile that fills up is hashed into the tile above, and the
 * entry itself into the current entry bundle. The store holds only the right edge (the partial
 * tiles and bundle, the size, the size last checkpointed) and the full tiles not yet published:
 * everything else lives in the published log. The root is computed from the partial tiles alone,
 * since the maximal complete subtrees of the right edge are made of their hashes.
 *
 * <p>The store is the whole state, so a sequencer whose store is restored after a crash carries on
 * exactly where the last committed state left off.
 */
public final class LogAppender {
    /** Where the log's state is kept; a Kafka Streams store in the sequencer, a map in tests. */
    public interface Store {
        byte[] get(String key);

        void put(String key, byte[] value);

        void delete(String key);

        /** A store made of its three operations (a Kafka Streams store's {@code get}, {@code put}, {@code delete}). */
        static Store of(
                java.util.function.Function<String, byte[]> get,
                java.util.function.BiConsumer<String, byte[]> put,
                java.util.function.Consumer<String> delete) {
            return new Store() {
                @Override
                public byte[] get(String key) {
                    return get.apply(key);
                }

                @Override
                public void put(String key, byte[] value) {
                    put.accept(key, value);
                }

                @Override
                public void delete(String key) {
                    delete.accept(key);
                }
            };
        }

        /** A store that is a map. */
        static Store of(Map<String, byte[]> map) {
            return of(map::get, map::put, map::remove);
        }
    }

    static final String SIZE = "size";
    static final String CHECKPOINTED = "checkpointed";
    static final String FIRST_LEAF = "first-leaf";
    private static final int ENTRY_MAX = 0xFFFF;

    private final Store store;
    // The two sizes as last read or written: an appender owns its store while it lives, so they are
    // read from it once, not on every append (a new appender reads them again, as after a restore).
    private long size = -1;
    private long checkpointed = -1;

    public LogAppender(Store store) {
        this.store = store;
    }

    public long size() {
        if (size < 0) {
            size = number(SIZE);
        }
        return size;
    }

    /** The size of the last checkpoint whose tiles were handed out by {@link #tilesToPublish}. */
    public long checkpointed() {
        if (checkpointed < 0) {
            checkpointed = number(CHECKPOINTED);
        }
        return checkpointed;
    }

    /** Whether a checkpoint was ever published, even of the empty log. */
    public boolean everCheckpointed() {
        return store.get(CHECKPOINTED) != null;
    }

    /**
     * The leaf hash of entry 0, which tells this log from another of the same name ({@link
     * SignedLogs}); empty while the log is empty, and for a log grown past its first tile before
     * the hash was kept.
     */
    public Optional<byte[]> firstLeaf() {
        byte[] kept = store.get(FIRST_LEAF);
        if (kept != null || size() == 0) {
            return Optional.ofNullable(kept);
        }
        byte[] firstTile = store.get(new TilePath(0, 0, TilePath.WIDTH).storeKey());
        return firstTile == null ? Optional.empty() : Optional.of(Arrays.copyOf(firstTile, MerkleHashes.SIZE));
    }

    /** Keeps entry 0's leaf hash, found elsewhere for a log that grew before it was kept. */
    public void keepFirstLeaf(byte[] leaf) {
        store.put(FIRST_LEAF, leaf.clone());
    }

    /** Appends one entry; returns its index. */
    public long append(byte[] entry) {
        if (entry.length > ENTRY_MAX) {
            throw new IllegalArgumentException("an entry is at most 65535 bytes");
        }
        long index = size();
        String bundle = new TilePath(TilePath.ENTRIES, index / TilePath.WIDTH, TilePath.WIDTH).storeKey();
        byte[] framed = ByteBuffer.allocate(2 + entry.length)
                .putShort((short) entry.length)
                .put(entry)
                .array();
        store.put(bundle, concat(store.get(bundle), framed));
        byte[] leaf = MerkleHashes.leaf(entry);
        if (index == 0) {
            store.put(FIRST_LEAF, leaf);
        }
        addHash(0, index, leaf);
        store.put(SIZE, ByteBuffer.allocate(8).putLong(index + 1).array());
        size = index + 1;
        return index;
    }

    /** MTH of the whole log as it stands. */
    public byte[] root() {
        return MerkleProofs.root(size(), hashes());
    }

    /** Complete-subtree hashes of the right edge (all a root or checkpoint needs). */
    public HashSource hashes() {
        return new TileHashes((level, index) -> store.get(new TilePath(level, index, TilePath.WIDTH).storeKey()));
    }

    /**
     * The tiles and bundles that changed since the last checkpoint, by store key ({@code
     * tile/<L>/<N>}, {@code tile/entries/<N>}), with their contents now: what a checkpoint of the
     * current size must be published with. Derived from the sizes alone, so a sequencer restarted
     * between two checkpoints hands out everything still unpublished.
     */
    public Map<String, byte[]> tilesToPublish() {
        long from = checkpointed();
        long to = size();
        Map<String, byte[]> tiles = new LinkedHashMap<>();
        if (to == from) {
            return tiles;
        }
        for (long n = from / TilePath.WIDTH; n <= (to - 1) / TilePath.WIDTH; n++) {
            String key = new TilePath(TilePath.ENTRIES, n, TilePath.WIDTH).storeKey();
            tiles.put(key, store.get(key));
        }
        long scale = 1;
        for (int level = 0; level <= 63 && to / scale > 0; level++, scale *= TilePath.WIDTH) {
            long before = from / scale;
            long after = to / scale;
            for (long n = before / TilePath.WIDTH; after > before && n <= (after - 1) / TilePath.WIDTH; n++) {
                String key = new TilePath(level, n, TilePath.WIDTH).storeKey();
                tiles.put(key, store.get(key));
            }
            if (scale > Long.MAX_VALUE / TilePath.WIDTH) {
                break;
            }
        }
        return tiles;
    }

    /** Records that the tiles were published with a checkpoint of the current size; full ones leave the store. */
    public void published(Map<String, byte[]> tiles) {
        tiles.forEach((key, value) -> {
            boolean full = key.startsWith("tile/entries/")
                    ? count(value) == TilePath.WIDTH
                    : value.length == TilePath.WIDTH * MerkleHashes.SIZE;
            if (full) {
                store.delete(key);
            }
        });
        store.put(CHECKPOINTED, ByteBuffer.allocate(8).putLong(size()).array());
        checkpointed = size();
    }

    private void addHash(int level, long index, byte[] hash) {
        String key = new TilePath(level, index / TilePath.WIDTH, TilePath.WIDTH).storeKey();
        byte[] tile = concat(store.get(key), hash);
        store.put(key, tile);
        if (tile.length == TilePath.WIDTH * MerkleHashes.SIZE) {
            addHash(level + 1, index / TilePath.WIDTH, TileHashes.perfectRoot(tile, 0, TilePath.WIDTH));
        }
    }

    /** Entries in a bundle: each is a big-endian uint16 length and that many bytes. */
    static int count(byte[] bundle) {
        int entries = 0;
        for (int at = 0; at < bundle.length; entries++) {
            at += 2 + (((bundle[at] & 0xFF) << 8) | (bundle[at + 1] & 0xFF));
        }
        return entries;
    }

    private long number(String key) {
        byte[] value = store.get(key);
        return value == null ? 0 : ByteBuffer.wrap(value).getLong();
    }

    private static byte[] concat(byte[] head, byte[] tail) {
        if (head == null) {
            return tail.clone();
        }
        byte[] out = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, out, head.length, tail.length);
        return out;
    }
}
