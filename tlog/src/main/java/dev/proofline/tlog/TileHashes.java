package dev.proofline.tlog;

import java.util.Arrays;

/**
 * Complete-subtree hashes read from tiles: a subtree of height {@code 8L + r} is the perfect tree
 * over {@code 2^r} consecutive hashes of a level-L tile. Only tiles are stored; the levels between
 * are hashed again when asked for, as the tlog-tiles specification intends.
 */
public final class TileHashes implements HashSource {
    /** The stored bytes of tile {@code (level, index)}, full or partial (may be longer than needed), or null. */
    @FunctionalInterface
    public interface Tiles {
        byte[] tile(int level, long index);
    }

    private final Tiles tiles;

    public TileHashes(Tiles tiles) {
        this.tiles = tiles;
    }

    @Override
    public byte[] subtree(int height, long index) {
        int level = height / 8;
        int rise = height % 8;
        long first = index << rise;
        int count = 1 << rise;
        long tile = first / TilePath.WIDTH;
        int offset = (int) (first % TilePath.WIDTH);
        byte[] data = tiles.tile(level, tile);
        if (data == null || data.length < (offset + count) * MerkleHashes.SIZE) {
            throw new IllegalStateException(
                    "tile " + level + "/" + tile + " does not hold hash " + (offset + count - 1));
        }
        return perfectRoot(data, offset, count);
    }

    /** The root of the perfect tree over {@code count} (a power of two) hashes of a tile from {@code offset}. */
    static byte[] perfectRoot(byte[] data, int offset, int count) {
        byte[][] row = new byte[count][];
        for (int i = 0; i < count; i++) {
            int from = (offset + i) * MerkleHashes.SIZE;
            row[i] = Arrays.copyOfRange(data, from, from + MerkleHashes.SIZE);
        }
        for (int width = count; width > 1; width /= 2) {
            for (int i = 0; i < width / 2; i++) {
                row[i] = MerkleHashes.node(row[2 * i], row[2 * i + 1]);
            }
        }
        return row[0];
    }
}
