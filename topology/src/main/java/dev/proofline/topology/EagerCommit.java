package dev.proofline.topology;

import java.time.Duration;

/**
 * When a verified request asks Kafka Streams to commit at once instead of waiting for the commit
 * interval. A receipt is only visible (and a REST caller only answered) once the exactly-once
 * transaction commits, so a lone request would otherwise wait up to the whole interval; but a
 * commit per record would cost a backlog most of its throughput. The request's age when its
 * verification starts tells the two apart: within {@code maxAge} of being written means the
 * pipeline keeps up, and it asks for a commit; an older one means a backlog, which is left to the
 * commit interval. Group commit, in short, steered by lag.
 *
 * <p>Asked commits are paced: a stream thread asks at most once per {@code minGap}. Every
 * transaction costs the broker a marker on each partition it wrote and the thread two round trips,
 * whatever it holds, so under steady load (many callers, each waiting) a gap of a few
 * milliseconds groups several receipts into one transaction and buys throughput, which is what
 * those callers wait on. A lone request still commits at once: the gap only holds a request that
 * comes within it of the last ask after another one did (so callers are arriving together), and
 * the task holding it asks from a punctuator once the gap is over.
 *
 * <p>The pace is per stream thread, not per task: one exactly-once transaction commits every task
 * the thread runs, so any task's ask commits them all.
 */
public final class EagerCommit {
    /** Never ask: commits follow the commit interval alone. */
    public static final EagerCommit NEVER = new EagerCommit(Duration.ZERO, Duration.ZERO);

    private final long maxAgeMillis;
    private final long minGapMillis;
    private final ThreadLocal<Pace> paces = ThreadLocal.withInitial(Pace::new);

    /**
     * @param maxAge a request verified within this of being written asks for a commit; zero: never
     * @param minGap the least time between two asks of one stream thread; zero: ask for every request
     */
    public EagerCommit(Duration maxAge, Duration minGap) {
        this.maxAgeMillis = maxAge.toMillis();
        this.minGapMillis = minGap.toMillis();
    }

    /** Whether this ever asks for a commit. */
    boolean enabled() {
        return maxAgeMillis > 0;
    }

    /** The gap between asks, how often a punctuator should look for a held request. */
    Duration minGap() {
        return Duration.ofMillis(minGapMillis);
    }

    /** Whether a request written at {@code writtenAt} whose verification starts at {@code now} (epoch ms) wants a commit soon. */
    boolean due(long writtenAt, long now) {
        return enabled() && now - writtenAt <= maxAgeMillis;
    }

    /**
     * For a {@linkplain #due due} request written at {@code writtenAt}, on the thread verifying it
     * at {@code now}: true to ask for the commit now; false to hold it while this thread's gap
     * lasts, and {@link #askHeld} from a punctuator. Within the gap, a request still goes at once
     * when it was written after the thread's last ask and is the first verified since: one caller
     * at a time (each sends its next request once answered) has nobody to share a transaction
     * with, and holding would only add the gap to every answer. A request written before the last
     * ask, or a second one since it, says callers are arriving together.
     */
    boolean askNow(long writtenAt, long now) {
        Pace pace = paces.get();
        // A time ahead of this clock says nothing of when the request came (a producer's clock runs
        // fast), so it never counts as alone: a backlog of such records would ask on every one. (A
        // lone caller whose front door runs on an instance with a clock ahead waits one gap at most.)
        boolean alone = pace.sinceAsk == 0 && writtenAt > pace.lastAsk && writtenAt <= now;
        pace.sinceAsk++;
        return alone ? ask(pace, now) : askHeld(pace, now);
    }

    /**
     * From the punctuator of a task holding a request: true to ask now, once the thread's gap is
     * over. The hold is the task's and not the thread's because Streams commits on a task's ask
     * only if that task has something to commit.
     */
    boolean askHeld(long now) {
        return askHeld(paces.get(), now);
    }

    private boolean askHeld(Pace pace, long now) {
        return now - pace.lastAsk >= minGapMillis && ask(pace, now);
    }

    private static boolean ask(Pace pace, long now) {
        pace.lastAsk = now;
        pace.sinceAsk = 0;
        return true;
    }

    /** One stream thread's asks. */
    private static final class Pace {
        long lastAsk = Long.MIN_VALUE / 2; // long ago, without overflow in now - lastAsk
        int sinceAsk; // due requests verified since the last ask
    }
}
