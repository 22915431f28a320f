package dev.proofline.query.tlog;

import dev.proofline.tlog.InclusionProof;
import dev.proofline.tlog.LogRecords;
import dev.proofline.tlog.MerkleHashes;
import dev.proofline.tlog.MerkleProofs;
import dev.proofline.tlog.TileHashes;
import dev.proofline.tlog.TilePath;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The transparency log as this instance holds it (the global store of the log topic, the same on
 * every instance): the latest checkpoint, tiles and entry bundles cut to the width asked for, and
 * inclusion proofs for entries ({@code docs/tlog.md}).
 */
public final class PublishedLog {
    /** What a proof request found. */
    public sealed interface ProofAnswer {}

    /** The proof, in the tlog-proof format. */
    public record Proof(String text) implements ProofAnswer {}

    /** The entry has an index but no checkpoint covers it yet, or it has no index yet. */
    public record Pending() implements ProofAnswer {}

    /**
     * How long a tile past this instance's own checkpoint is waited for (see {@link #awaitTile}),
     * checked every {@link #CATCH_UP_POLL_MILLIS}.
     */
    public static final long CATCH_UP_MILLIS = 2_000;

    static final long CATCH_UP_POLL_MILLIS = 20;

    private final Function<String, byte[]> records;
    private final long catchUpMillis;
    private final Semaphore waiters;
    private final int maxWaiters;

    /**
     * @param records a record of the log topic by key, or null (may throw when the store is not ready)
     * @param maxWaiters how many requests may wait for a tile at once (each holds a server thread
     *     while it waits; more are answered at once, so asking for tiles of the future cannot hold
     *     many threads)
     */
    public PublishedLog(Function<String, byte[]> records, int maxWaiters) {
        this(records, maxWaiters, CATCH_UP_MILLIS);
    }

    PublishedLog(Function<String, byte[]> records, int maxWaiters, long catchUpMillis) {
        this.records = records;
        this.maxWaiters = maxWaiters;
        this.waiters = new Semaphore(maxWaiters);
        this.catchUpMillis = catchUpMillis;
    }

    /** The latest signed checkpoint, as the sequencer signed it. */
    public Optional<String> checkpoint() {
        return Optional.ofNullable(records.apply(LogRecords.CHECKPOINT))
                .map(b -> new String(b, StandardCharsets.UTF_8));
    }

    /** The tile or bundle at that path, exactly {@code width} wide, if the log has grown that far. */
    public Optional<byte[]> tile(TilePath path) {
        byte[] stored = records.apply(path.storeKey());
        if (stored == null) {
            return Optional.empty();
        }
        if (!path.isEntries()) {
            int bytes = path.width() * MerkleHashes.SIZE;
            return stored.length < bytes ? Optional.empty() : Optional.of(Arrays.copyOf(stored, bytes));
        }
        int at = 0;
        for (int i = 0; i < path.width(); i++) {
            if (at + 2 > stored.length) {
                return Optional.empty();
            }
            at += 2 + (((stored[at] & 0xFF) << 8) | (stored[at + 1] & 0xFF));
        }
        return at > stored.length ? Optional.empty() : Optional.of(Arrays.copyOf(stored, at));
    }

    /**
     * The tile at that path, waiting up to {@link #CATCH_UP_MILLIS} when the log may have grown that
     * far without this instance having read it yet. Every instance reads the log topic on its own,
     * so a verifier behind a load balancer may take a checkpoint from one instance and ask another,
     * a moment behind, for its tiles; C2SP tlog-tiles says a log MUST serve the partial tiles of
     * every checkpoint it produced. A tile this instance's own checkpoint covers is never waited for:
     * the sequencer writes tiles before their checkpoint on the log's one partition, so once the
     * checkpoint is read the tile is here, or it is nowhere. So a tile missed is looked up once more
     * after the checkpoint is read, and only then counted missing.
     */
    public Optional<byte[]> awaitTile(TilePath path) throws InterruptedException {
        Optional<byte[]> tile = tile(path);
        long needed = path.treeSizeNeeded();
        if (tile.isPresent() || needed == Long.MAX_VALUE) {
            return tile; // a tile served costs one lookup
        }
        long size = size();
        tile = tile(path);
        if (tile.isPresent() || needed <= size || !waiters.tryAcquire()) {
            return tile;
        }
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(catchUpMillis);
            while (tile.isEmpty() && deadline - System.nanoTime() > 0) {
                Thread.sleep(CATCH_UP_POLL_MILLIS);
                tile = tile(path);
            }
            return tile;
        } finally {
            waiters.release();
        }
    }

    /** How many requests are waiting for a tile now. */
    int waiting() {
        return maxWaiters - waiters.availablePermits();
    }

    /** The tree size of this instance's latest checkpoint; 0 before the first. */
    public long size() {
        return checkpoint().map(PublishedLog::sizeOf).orElse(0L);
    }

    private static long sizeOf(String note) {
        return Long.parseLong(LogRecords.noteText(note).split("\n")[1]);
    }

    /** The inclusion proof of an entry against the latest checkpoint. */
    public ProofAnswer proof(byte[] entry) {
        byte[] index = records.apply(LogRecords.index(entry));
        Optional<String> note = checkpoint();
        if (index == null || note.isEmpty()) {
            return new Pending();
        }
        long at = ByteBuffer.wrap(index).getLong();
        long size = sizeOf(note.get());
        if (at >= size) {
            return new Pending();
        }
        TileHashes hashes =
                new TileHashes((level, n) -> records.apply(new TilePath(level, n, TilePath.WIDTH).storeKey()));
        return new Proof(new InclusionProof(at, MerkleProofs.inclusion(at, size, hashes), note.get()).text());
    }
}
