package dev.proofline.topology;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PassLimitTest {
    private final AtomicLong nanos = new AtomicLong();
    private final OpenTransactions transactions = new OpenTransactions(nanos::get);
    private final PassLimit limit = new PassLimit(transactions, Duration.ofSeconds(15));
    private long offset;

    @Test
    void aSecondRecordInTheSameTurnIsStoppedOnceTheTransactionIsTooOld() {
        PassLimit.Task task = limit.forTask();
        task.beforeRecord(1_000, 0, offset++);
        transactions.began();
        elapse(Duration.ofSeconds(10));
        task.beforeRecord(1_000, 0, offset++); // 10 s open: within the limit
        elapse(Duration.ofSeconds(6));
        assertThrows(PassTooLong.class, () -> task.beforeRecord(1_000, 0, offset++));
    }

    @Test
    void theFirstRecordOfATurnAlwaysGoesThroughSoEveryPassEnds() {
        PassLimit.Task first = limit.forTask();
        PassLimit.Task second = limit.forTask();
        first.beforeRecord(1_000, 0, offset++);
        transactions.began();
        elapse(Duration.ofSeconds(40));
        // Another task's first record of its turn, however old the transaction: one record per task
        // per pass is what a replacement thread verifies, and it must always get through.
        assertDoesNotThrow(() -> second.beforeRecord(41_000, 1, 0));
        // The first task's next turn too.
        assertDoesNotThrow(() -> first.beforeRecord(41_500, 0, offset++));
    }

    @Test
    void aCommitStartsTheClockAgain() {
        PassLimit.Task task = limit.forTask();
        task.beforeRecord(1_000, 0, offset++);
        transactions.began();
        elapse(Duration.ofSeconds(20));
        transactions.ended();
        assertDoesNotThrow(() -> task.beforeRecord(1_000, 0, offset++), "no transaction open");
        transactions.began();
        elapse(Duration.ofSeconds(14));
        assertDoesNotThrow(() -> task.beforeRecord(1_000, 0, offset++));
    }

    @Test
    void eachThreadSeesItsOwnTransaction() throws Exception {
        PassLimit.Task task = limit.forTask();
        task.beforeRecord(1_000, 0, offset++);
        Thread other = new Thread(transactions::began);
        other.start();
        other.join();
        elapse(Duration.ofSeconds(60));
        assertDoesNotThrow(
                () -> task.beforeRecord(1_000, 0, offset++), "another thread's transaction is not this one's");
    }

    /**
     * The records before a cut come back on the next thread, fast ones first, which would grow N
     * again: until the cut partition is past the cut, every record asks for a commit, which keeps
     * N down.
     */
    @Test
    void afterACutEveryRecordAsksForACommitUntilThePartitionIsPastIt() {
        PassLimit.Task cutTask = limit.forTask();
        assertFalse(cutTask.beforeRecord(1_000, 2, 40));
        transactions.began();
        elapse(Duration.ofSeconds(16));
        assertThrows(PassTooLong.class, () -> cutTask.beforeRecord(1_000, 2, 41));
        transactions.ended();

        PassLimit.Task next = limit.forTask(); // the partition's task on the replacement thread
        PassLimit.Task other = limit.forTask(); // another partition's, on the same thread
        assertTrue(next.beforeRecord(2_000, 2, 30), "a record before the cut, verified again");
        assertTrue(other.beforeRecord(2_000, 1, 500), "every partition's records, while the cut is recovered");
        assertTrue(next.beforeRecord(2_001, 2, 41), "the record the pass was cut before");
        assertFalse(next.beforeRecord(2_002, 2, 42), "past it: Streams' own pace again");
        assertFalse(next.beforeRecord(2_003, 2, 30), "and the cut is forgotten");
        assertFalse(other.beforeRecord(2_004, 1, 501));
    }

    /** A cut partition that moved to another instance never comes past its cut here. */
    @Test
    void aCutIsForgottenAfterAWhile() {
        PassLimit.Task cutTask = limit.forTask();
        cutTask.beforeRecord(1_000, 2, 40);
        transactions.began();
        elapse(Duration.ofSeconds(16));
        assertThrows(PassTooLong.class, () -> cutTask.beforeRecord(1_000, 2, 41));
        transactions.ended();
        PassLimit.Task other = limit.forTask();
        assertTrue(other.beforeRecord(2_000, 1, 7));
        elapse(PassLimit.RECOVERY.plusSeconds(1));
        assertFalse(other.beforeRecord(3_000, 1, 8));
    }

    @Test
    void noLimitNeverStops() {
        PassLimit.Task task = PassLimit.NONE.forTask();
        for (int i = 0; i < 3; i++) {
            long at = i;
            assertDoesNotThrow(() -> task.beforeRecord(1_000, 0, at));
        }
    }

    private void elapse(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }
}
