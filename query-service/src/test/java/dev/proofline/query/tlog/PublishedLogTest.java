package dev.proofline.query.tlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.tlog.LogRecords;
import dev.proofline.tlog.TilePath;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A tile past this instance's checkpoint is waited for (another instance may have published it and
 * this one not read it yet); one its checkpoint covers, or no log can have, is answered at once.
 * Waits are counted in store lookups, not timed.
 */
class PublishedLogTest {
    private static final int WAITERS = 4;

    private final Map<String, byte[]> store = new ConcurrentHashMap<>();
    /** Lookups made by the test's own thread (other threads' waits are not counted). */
    private final AtomicInteger lookups = new AtomicInteger();

    private final Thread testThread = Thread.currentThread();
    private final Function<String, byte[]> records = key -> {
        if (Thread.currentThread() == testThread) {
            lookups.incrementAndGet();
        }
        return store.get(key);
    };
    private final PublishedLog log = new PublishedLog(records, WAITERS);

    PublishedLogTest() {
        // A checkpoint of 256 entries; the signature line is not read.
        store.put(
                LogRecords.CHECKPOINT,
                "example.com/log\n256\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n\u2014 example.com/log AAAA\n"
                        .getBytes(StandardCharsets.UTF_8));
        store.put("tile/0/000", new byte[256 * 32]);
    }

    @Test
    void aTileTheCheckpointCoversIsAnsweredAtOnce() throws Exception {
        assertTrue(log.awaitTile(new TilePath(0, 0, 200)).isPresent());
        assertEquals(1, lookups.get(), "a tile served: the tile alone");
        // Covered by the checkpoint but not stored (an entry bundle this store lacks): no wait.
        lookups.set(0);
        assertTrue(log.awaitTile(new TilePath(TilePath.ENTRIES, 0, 10)).isEmpty());
        assertEquals(3, lookups.get(), "the tile, the checkpoint, the tile again");
        assertEquals(256, log.size());
    }

    @Test
    void aTilePastTheCheckpointIsWaitedForUntilThisInstanceReadsIt() throws Exception {
        byte[] tile = new byte[5 * 32];
        tile[0] = 7;
        Thread publisher = new Thread(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
            store.put("tile/0/001", tile);
        });
        publisher.start();
        byte[] served = log.awaitTile(new TilePath(0, 1, 5)).orElseThrow();
        publisher.join();
        assertArrayEquals(tile, served);
    }

    @Test
    void aTileReadWithTheCheckpointThatCoversItIsNotRefused() throws Exception {
        // The store reads the tile and its checkpoint just after a lookup of the tile missed it. Had
        // the checkpoint been read after the tile, it would have covered the tile just missed, and
        // the tile would have been refused at once instead of being looked up again.
        AtomicInteger tileLookups = new AtomicInteger();
        PublishedLog catchingUp = new PublishedLog(
                key -> {
                    byte[] value = store.get(key);
                    if (key.equals("tile/0/001") && tileLookups.getAndIncrement() == 0) {
                        store.put("tile/0/001", new byte[3 * 32]);
                        store.put(
                                LogRecords.CHECKPOINT,
                                "example.com/log\n259\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n\u2014 x AAAA\n"
                                        .getBytes(StandardCharsets.UTF_8));
                    }
                    return value;
                },
                WAITERS);
        assertTrue(catchingUp.awaitTile(new TilePath(0, 1, 3)).isPresent());
        assertEquals(2, tileLookups.get());
    }

    @Test
    void aTileThatNeverComesIsRefusedAfterTheWait() throws Exception {
        assertTrue(log.awaitTile(new TilePath(0, 9, 1)).isEmpty());
        long most = PublishedLog.CATCH_UP_MILLIS / PublishedLog.CATCH_UP_POLL_MILLIS;
        assertTrue(lookups.get() > most / 2, lookups.get() + " lookups: it was waited for");
        // No log grows past a long: refused at once.
        lookups.set(0);
        assertTrue(log.awaitTile(new TilePath(63, 5, 1)).isEmpty());
        assertEquals(1, lookups.get());
    }

    @Test
    void onlySoManyRequestsWaitAtOnce() throws Exception {
        // Waits long enough that none ends on its own while the test runs; they are interrupted.
        PublishedLog patient = new PublishedLog(records, WAITERS, 600_000);
        List<Thread> waiting = new ArrayList<>();
        for (int i = 0; i < WAITERS; i++) {
            Thread t = new Thread(() -> {
                try {
                    patient.awaitTile(new TilePath(0, 50, 1));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            waiting.add(t);
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (patient.waiting() < WAITERS && deadline - System.nanoTime() > 0) {
            Thread.sleep(5);
        }
        assertEquals(WAITERS, patient.waiting());
        lookups.set(0);
        assertTrue(patient.awaitTile(new TilePath(0, 51, 1)).isEmpty());
        assertEquals(3, lookups.get(), "the tile, the checkpoint, the tile again, then no wait: " + lookups.get());
        assertEquals(WAITERS, patient.waiting());
        for (Thread t : waiting) {
            t.interrupt();
            t.join();
        }
        assertEquals(0, patient.waiting());
    }
}
