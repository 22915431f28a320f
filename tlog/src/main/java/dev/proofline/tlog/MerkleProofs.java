package dev.proofline.tlog;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * Roots, inclusion proofs and consistency proofs of RFC 9162 (section 2.1), built from any
 * {@link HashSource} and checked by the verification algorithms of the same sections.
 */
public final class MerkleProofs {
    private MerkleProofs() {}

    /** MTH(D[0:size]). */
    public static byte[] root(long size, HashSource hashes) {
        return size == 0 ? MerkleHashes.emptyRoot() : range(0, size, hashes);
    }

    /** PATH(index, D[0:size]): the inclusion proof, the leaf's sibling first. */
    public static List<byte[]> inclusion(long index, long size, HashSource hashes) {
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("index " + index + " is not in a tree of size " + size);
        }
        List<byte[]> proof = new ArrayList<>();
        path(index, 0, size, hashes, proof);
        return proof;
    }

    /** PROOF(first, D[0:second]): the consistency proof; empty when first is 0 or equals second. */
    public static List<byte[]> consistency(long first, long second, HashSource hashes) {
        if (first < 0 || first > second) {
            throw new IllegalArgumentException("no consistency proof from " + first + " to " + second);
        }
        List<byte[]> proof = new ArrayList<>();
        if (first > 0 && first < second) {
            subproof(first, 0, second, true, hashes, proof);
        }
        return proof;
    }

    /** RFC 9162, 2.1.3.2: whether the proof binds the leaf at index to the root of a tree of size. */
    public static boolean verifyInclusion(long index, long size, byte[] leaf, List<byte[]> proof, byte[] root) {
        if (index < 0 || index >= size) {
            return false;
        }
        long fn = index;
        long sn = size - 1;
        byte[] r = leaf;
        for (byte[] p : proof) {
            if (sn == 0) {
                return false;
            }
            if ((fn & 1) == 1 || fn == sn) {
                r = MerkleHashes.node(p, r);
                while ((fn & 1) == 0 && fn != 0) {
                    fn >>= 1;
                    sn >>= 1;
                }
            } else {
                r = MerkleHashes.node(r, p);
            }
            fn >>= 1;
            sn >>= 1;
        }
        return sn == 0 && MessageDigest.isEqual(r, root);
    }

    /** RFC 9162, 2.1.4.2: whether the proof shows the tree of size first is a prefix of that of second. */
    public static boolean verifyConsistency(
            long first, long second, byte[] firstRoot, byte[] secondRoot, List<byte[]> proof) {
        if (first < 0 || first > second) {
            return false;
        }
        if (first == second) {
            return proof.isEmpty() && MessageDigest.isEqual(firstRoot, secondRoot);
        }
        if (first == 0) {
            return proof.isEmpty() && MessageDigest.isEqual(firstRoot, MerkleHashes.emptyRoot());
        }
        List<byte[]> path = new ArrayList<>();
        if (Long.bitCount(first) == 1) {
            path.add(firstRoot);
        }
        path.addAll(proof);
        if (path.isEmpty()) {
            return false;
        }
        long fn = first - 1;
        long sn = second - 1;
        while ((fn & 1) == 1) {
            fn >>= 1;
            sn >>= 1;
        }
        byte[] fr = path.get(0);
        byte[] sr = path.get(0);
        for (byte[] c : path.subList(1, path.size())) {
            if (sn == 0) {
                return false;
            }
            if ((fn & 1) == 1 || fn == sn) {
                fr = MerkleHashes.node(c, fr);
                sr = MerkleHashes.node(c, sr);
                while ((fn & 1) == 0 && fn != 0) {
                    fn >>= 1;
                    sn >>= 1;
                }
            } else {
                sr = MerkleHashes.node(sr, c);
            }
            fn >>= 1;
            sn >>= 1;
        }
        return sn == 0 && MessageDigest.isEqual(fr, firstRoot) && MessageDigest.isEqual(sr, secondRoot);
    }

    private static void path(long m, long lo, long hi, HashSource hashes, List<byte[]> proof) {
        long n = hi - lo;
        if (n == 1) {
            return;
        }
        long k = Long.highestOneBit(n - 1);
        if (m < k) {
            path(m, lo, lo + k, hashes, proof);
            proof.add(range(lo + k, hi, hashes));
        } else {
            path(m - k, lo + k, hi, hashes, proof);
            proof.add(range(lo, lo + k, hashes));
        }
    }

    private static void subproof(long m, long lo, long hi, boolean whole, HashSource hashes, List<byte[]> proof) {
        long n = hi - lo;
        if (m == n) {
            if (!whole) {
                proof.add(range(lo, hi, hashes));
            }
            return;
        }
        long k = Long.highestOneBit(n - 1);
        if (m <= k) {
            subproof(m, lo, lo + k, whole, hashes, proof);
            proof.add(range(lo + k, hi, hashes));
        } else {
            subproof(m - k, lo + k, hi, false, hashes, proof);
            proof.add(range(lo, lo + k, hashes));
        }
    }

    /** MTH(D[lo:hi]) for the ranges the recursions above ask for: complete subtrees and right edges. */
    private static byte[] range(long lo, long hi, HashSource hashes) {
        long n = hi - lo;
        if (Long.bitCount(n) == 1 && lo % n == 0) {
            return hashes.subtree(Long.numberOfTrailingZeros(n), lo / n);
        }
        long k = Long.highestOneBit(n - 1);
        return MerkleHashes.node(range(lo, lo + k, hashes), range(lo + k, hi, hashes));
    }
}
