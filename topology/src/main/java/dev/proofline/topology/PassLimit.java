package dev.proofline.topology;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps a stream thread's transaction well inside the broker's transaction timeout, whatever the
 * requests queued on its tasks cost.
 *
 * <p>Kafka Streams commits between passes of its loop. A pass gives each task up to N records in
 * a row; N grows by one after each pass that neither commits nor punctuates (a streak of fast
 * records takes it to 20 here) and halves after one that does. Requests that each take their whole
 * step budget (seconds of pattern matching) queued behind such a streak are then verified N at a
 * time in one transaction, which outlives the timeout: the broker aborts it, the thread is fenced,
 * and it verifies the same N again, with the same N, for ever. A caller could stop a thread so.
 *
 * <p>So once the thread's transaction ({@link OpenTransactions}) has been open longer than the
 * limit, a task that already verified a record in this pass does not start another: {@link
 * PassTooLong} fails the thread, Streams aborts its transaction and the stream thread is replaced.
 * Nothing is lost; the aborted records are verified again. But the records before the cut would
 * grow N again on their way back to it (they are fast, so no commit comes between them), and the
 * pass would be cut again, and again. So the cut is remembered: until the partition is past the
 * record where it was cut, whichever processor of this instance verifies it asks for a commit after
 * every record, which halves N after every pass and keeps it at one. At N = 1 a pass gives each
 * task one record, and the first record of a task's turn is never stopped, so the pass gets
 * through; each pass ends within the limit plus one record per task.
 */
public final class PassLimit {
    /** No limit (tests of the topology alone, whose transactions nobody times). */
    public static final PassLimit NONE = new PassLimit(new OpenTransactions(() -> 0), Duration.ofNanos(Long.MAX_VALUE));

    private final OpenTransactions transactions;
    private final long maxOpenNanos;
    // Input partition -> offset of the record a pass was cut before: until past it, commit after every record.
    private final Map<Integer, Long> cutAt = new ConcurrentHashMap<>();

    /**
     * @param transactions the stream threads' transactions, as their producers report them
     * @param maxOpen how long a transaction may be open before a task stops taking a second record
     */
    public PassLimit(OpenTransactions transactions, Duration maxOpen) {
        this.transactions = transactions;
        this.maxOpenNanos = maxOpen.toNanos();
    }

    /** The check for one task, kept by its processor. */
    Task forTask() {
        return new Task();
    }

    /** One task's turns: Streams hands every record of a turn the same system time. */
    final class Task {
        private long turn = Long.MIN_VALUE;

        /**
         * Before verifying the record at {@code offset} of input partition {@code partition}, in the
         * turn that began at {@code turnTimeMs} (the processor context's system time): throws
         * {@link PassTooLong} when this task already verified a record in this turn and the
         * thread's transaction is over the limit.
         *
         * @return whether to ask for a commit after this record: the partition has not yet passed
         *         the record a pass was cut before
         */
        boolean beforeRecord(long turnTimeMs, int partition, long offset) {
            Long cut = cutAt.get(partition);
            boolean recovering = cut != null && offset <= cut;
            if (cut != null && !recovering) {
                cutAt.remove(partition, cut);
            }
            boolean sameTurn = turnTimeMs == turn;
            turn = turnTimeMs;
            long open = transactions.openNanos();
            if (sameTurn && open > maxOpenNanos) {
                cutAt.merge(partition, offset, Math::max);
                throw new PassTooLong(open / 1_000_000);
            }
            return recovering;
        }
    }
}
