package dev.proofline.topology;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PassLimitTest {
    private final AtomicLong nanos = new AtomicLong();
    private final OpenTransactions transactions = new OpenTransactions(nanos::get);
    private final PassLimit limit = new PassLimit(transactions, Duration.ofSeconds(15));

    @Test
    void aSecondRecordInTheSameTurnIsStoppedOnceTheTransactionIsTooOld() {
        PassLimit.Task task = limit.forTask();
        task.beforeRecord(1_000);
        transactions.began();
        elapse(Duration.ofSeconds(10));
        task.beforeRecord(1_000); // 10 s open: within the limit
        elapse(Duration.ofSeconds(6));
        assertThrows(PassTooLong.class, () -> task.beforeRecord(1_000));
    }

    @Test
    void theFirstRecordOfATurnAlwaysGoesThroughSoEveryPassEnds() {
        PassLimit.Task first = limit.forTask();
        PassLimit.Task second = limit.forTask();
        first.beforeRecord(1_000);
        transactions.began();
        elapse(Duration.ofSeconds(40));
        // Another task's first record of its turn, however old the transaction: one record per task
        // per pass is what a replacement thread verifies, and it must always get through.
        assertDoesNotThrow(() -> second.beforeRecord(41_000));
        // The first task's next turn too.
        assertDoesNotThrow(() -> first.beforeRecord(41_500));
    }

    @Test
    void aCommitStartsTheClockAgain() {
        PassLimit.Task task = limit.forTask();
        task.beforeRecord(1_000);
        transactions.began();
        elapse(Duration.ofSeconds(20));
        transactions.ended();
        assertDoesNotThrow(() -> task.beforeRecord(1_000), "no transaction open");
        transactions.began();
        elapse(Duration.ofSeconds(14));
        assertDoesNotThrow(() -> task.beforeRecord(1_000));
    }

    @Test
    void eachThreadSeesItsOwnTransaction() throws Exception {
        PassLimit.Task task = limit.forTask();
        task.beforeRecord(1_000);
        Thread other = new Thread(transactions::began);
        other.start();
        other.join();
        elapse(Duration.ofSeconds(60));
        assertDoesNotThrow(() -> task.beforeRecord(1_000), "another thread's transaction is not this one's");
    }

    @Test
    void noLimitNeverStops() {
        PassLimit.Task task = PassLimit.NONE.forTask();
        for (int i = 0; i < 3; i++) {
            assertDoesNotThrow(() -> task.beforeRecord(1_000));
        }
    }

    private void elapse(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }
}
