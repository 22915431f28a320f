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
 * and it verifies the same records again, with the same N, for ever. A caller could stop a thread so.
 *
 * <p>So once the thread's transaction ({@link OpenTransactions}) has been open longer than the
 * limit, a task that already verified a record in this pass does not start another: {@link
 * PassTooLong} fails the thread, Streams aborts its transaction and the stream thread is replaced.
 * Nothing is lost; the aborted records are verified again. But the records before the cut would
 * grow N again on their way back to it (they are fast, so no commit comes between them), and the
 * pass would be cut again, and again. So the cut is remembered: until the cut partition is past the
 * record where it was cut (or {@link #RECOVERY} has passed, should it have moved to another
 * instance), every record this instance verifies asks for a commit, so that every pass that
 * verifies one commits and halves N. The first record of a task's turn is never stopped, so at
 * N = 1 a pass always gets through, and each pass ends within the limit plus one record per task.
 * N can still grow between two of the cut partition's fetches, in passes that verify nothing (the
 * receipts' own tasks): then the pass may be cut again, but only after the records committed since,
 * so each cut moves the partition on.
 */
public final class PassLimit {
    /** No limit (tests of the topology alone, whose transactions nobody times). */
    public static final PassLimit NONE = new PassLimit(new OpenTransactions(() -> 0), Duration.ofNanos(Long.MAX_VALUE));

    /** How long a cut is remembered at most: its partition may have moved to another instance. */
    static final Duration RECOVERY = Duration.ofMinutes(2);

    private final OpenTransactions transactions;
    private final long maxOpenNanos;
    // Input partition -> the record a pass was cut before: until past it, every record asks for a commit.
    private final Map<Integer, Cut> cuts = new ConcurrentHashMap<>();

    private record Cut(long offset, long until) {}

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

    /** Whether a cut is still being recovered from, now that {@code partition} is at {@code offset}. */
    private boolean recovering(int partition, long offset) {
        if (cuts.isEmpty()) {
            return false; // nearly always
        }
        Cut cut = cuts.get(partition);
        if (cut != null && offset > cut.offset()) {
            cuts.remove(partition, cut);
        }
        long now = transactions.nanoTime();
        cuts.values().removeIf(c -> now - c.until() > 0);
        return !cuts.isEmpty();
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
         * @return whether to ask for a commit after this record: a cut is being recovered from
         */
        boolean beforeRecord(long turnTimeMs, int partition, long offset) {
            boolean recovering = recovering(partition, offset);
            boolean sameTurn = turnTimeMs == turn;
            turn = turnTimeMs;
            long open = transactions.openNanos();
            if (sameTurn && open > maxOpenNanos) {
                Cut cut = new Cut(offset, transactions.nanoTime() + RECOVERY.toNanos());
                cuts.merge(partition, cut, (old, now) -> old.offset() >= now.offset() ? old : now);
                throw new PassTooLong(open / 1_000_000);
            }
            return recovering;
        }
    }
}
