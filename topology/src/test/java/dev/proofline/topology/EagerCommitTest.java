package dev.proofline.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class EagerCommitTest {
    private final EagerCommit fifty = new EagerCommit(Duration.ofMillis(50), Duration.ZERO);
    private final EagerCommit paced = new EagerCommit(Duration.ofMillis(50), Duration.ofMillis(10));

    @Test
    void aRequestVerifiedSoonAfterItWasWrittenCommitsAtOnce() {
        assertTrue(fifty.due(1_000, 1_000));
        assertTrue(fifty.due(1_000, 1_050));
        // A producer's clock ahead of ours is not a backlog.
        assertTrue(fifty.due(2_000, 1_000));
    }

    @Test
    void aBacklogWaitsForTheCommitInterval() {
        assertFalse(fifty.due(1_000, 1_051));
        // Records written long ago, e.g. replayed or produced with old timestamps.
        assertFalse(fifty.due(0, 1_000_000));
    }

    @Test
    void zeroNeverAsks() {
        assertFalse(EagerCommit.NEVER.due(1_000, 1_000));
        assertFalse(EagerCommit.NEVER.enabled());
    }

    @Test
    void withoutAGapEveryDueRequestAsks() {
        assertTrue(fifty.askNow(1_000, 1_000));
        assertTrue(fifty.askNow(999, 1_000));
    }

    @Test
    void oneCallerAtATimeIsNeverHeld() {
        // Each request written 2 ms after the last was asked for (its answer), verified 1 ms later:
        // well within the gap every time.
        for (long asked = 1_000; asked < 1_100; asked += 3) {
            assertTrue(paced.askNow(asked + 2, asked + 3), "a transaction of one: nobody to wait for");
        }
    }

    @Test
    void callersArrivingTogetherAreHeldUntilTheGapIsOver() {
        assertTrue(paced.askNow(1_000, 1_000), "the first request of a quiet thread commits at once");
        assertFalse(paced.askNow(999, 1_001), "written before that ask: it was waiting with it, held");
        assertFalse(paced.askNow(1_003, 1_004), "written after the ask but not the first since: held");
        assertFalse(paced.askHeld(1_009), "the punctuator waits out the gap");
        assertTrue(paced.askHeld(1_010), "the gap is over: one commit for what was held");
        assertFalse(paced.askHeld(1_011), "and the next gap starts");
        assertFalse(paced.askNow(1_009, 1_012), "written before the last ask: held");
        assertTrue(paced.askNow(1_015, 1_021), "a request after the gap asks itself");
        assertTrue(paced.askNow(1_022, 1_023), "the first since, written after: at once");
    }

    /** A backlog from a producer whose clock runs ahead still commits once per gap, not per record. */
    @Test
    void requestsDatedAheadOfThisClockAreNeverAlone() {
        int asks = 0;
        for (long now = 1_000; now < 1_100; now++) {
            asks += paced.askNow(now + 60_000, now) ? 1 : 0;
        }
        assertEquals(10, asks, "one ask per 10 ms gap over 100 ms");
    }

    @Test
    void thePaceIsEachStreamThreadsOwn() throws Exception {
        assertTrue(paced.askNow(1_000, 1_000));
        assertFalse(paced.askNow(1_000, 1_001), "this thread is under load: held");
        // Another thread commits its own transactions: this thread's pace does not hold it.
        Thread other = new Thread(() -> {
            assertTrue(paced.askNow(1_000, 1_002));
            assertFalse(paced.askNow(1_000, 1_003));
        });
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        other.setUncaughtExceptionHandler((thread, e) -> failure.complete(e));
        other.start();
        other.join();
        assertFalse(failure.isDone(), () -> "the other thread's pace: " + failure.join());
        assertEquals(Duration.ofMillis(10), paced.minGap());
    }
}
