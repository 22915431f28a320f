package dev.proofline.tlog;

/** Hashes of complete subtrees of a Merkle tree, wherever they are kept. */
public interface HashSource {
    /**
     * The hash of the complete subtree of height {@code height} (2^height leaves) with index
     * {@code index} at that height, covering leaves {@code [index * 2^height, (index+1) * 2^height)}.
     *
     * @throws IllegalStateException when it is not available
     */
    byte[] subtree(int height, long index);
}
