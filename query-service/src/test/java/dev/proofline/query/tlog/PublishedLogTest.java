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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A tile past this instance's checkpoint is waited for (another instance may have published it and
 * this one not read it yet); one its checkpoint covers, or no log can have, is answered at once.
 * Waits are counted in store lookups, not timed.
 */
class PublishedLogTest {
    private final Map<String, byte[]> store = new ConcurrentHashMap<>();
    /** Lookups made by the test's own thread (other threads' waits are not counted). */
    private final AtomicInteger lookups = new AtomicInteger();

    private final Thread testThread = Thread.currentThread();
    private final PublishedLog log = new PublishedLog(key -> {
        if (Thread.currentThread() == testThread) {
            lookups.incrementAndGet();
        }
        return store.get(key);
    });

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
        // Covered by the checkpoint but not stored (an entry bundle this store lacks): no wait.
        lookups.set(0);
        assertTrue(log.awaitTile(new TilePath(TilePath.ENTRIES, 0, 10)).isEmpty());
        assertEquals(2, lookups.get(), "the tile, then the checkpoint");
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
        CountDownLatch started = new CountDownLatch(PublishedLog.CATCH_UP_WAITERS);
        List<Thread> waiting = new ArrayList<>();
        for (int i = 0; i < PublishedLog.CATCH_UP_WAITERS; i++) {
            Thread t = new Thread(() -> {
                started.countDown();
                try {
                    log.awaitTile(new TilePath(0, 50, 1));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            waiting.add(t);
        }
        started.await();
        while (log.waiting() < PublishedLog.CATCH_UP_WAITERS) {
            Thread.sleep(5);
        }
        lookups.set(0);
        assertTrue(log.awaitTile(new TilePath(0, 51, 1)).isEmpty());
        assertEquals(2, lookups.get(), "the tile and the checkpoint, then no wait: " + lookups.get());
        assertEquals(PublishedLog.CATCH_UP_WAITERS, log.waiting());
        for (Thread t : waiting) {
            t.interrupt();
            t.join();
        }
        assertEquals(0, log.waiting());
    }
}
