package dev.proofline.topology;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the pipeline is making progress, for {@code /health}: how long each stream thread has been
 * on its current record, and when a record was last finished. The verdict on a record never depends
 * on this clock (the work budget counts steps); the clock only raises the alarm.
 */
public final class PipelineProgress implements PipelineListener {
    private static final Logger LOG = LoggerFactory.getLogger(PipelineProgress.class);
    /** A record taking longer than this is logged once, as an operator would want to know. */
    private static final Duration SLOW_RECORD = Duration.ofSeconds(1);

    private final Map<Thread, Long> inFlightSince = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;
    private volatile long lastFinished;

    public PipelineProgress() {
        this(System::nanoTime);
    }

    PipelineProgress(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.lastFinished = nanoTime.getAsLong();
    }

    @Override
    public void verified(String result, long nanos) {}

    @Override
    public void deadLettered(String errorCode) {}

    @Override
    public void started() {
        inFlightSince.put(Thread.currentThread(), nanoTime.getAsLong());
    }

    @Override
    public void finished(long nanos) {
        inFlightSince.remove(Thread.currentThread());
        lastFinished = nanoTime.getAsLong();
        if (nanos > SLOW_RECORD.toNanos()) {
            LOG.warn(
                    "a record took {} ms on {}",
                    nanos / 1_000_000,
                    Thread.currentThread().getName());
        }
    }

    /** The longest any stream thread has been on its current record, if one is on a record. */
    public Optional<Duration> longestInFlight() {
        long now = nanoTime.getAsLong();
        return inFlightSince.values().stream()
                .map(since -> Duration.ofNanos(now - since))
                .max(Duration::compareTo);
    }

    /** How long since a stream thread last finished a record (since start, if none yet). */
    public Duration sinceLastFinished() {
        return Duration.ofNanos(nanoTime.getAsLong() - lastFinished);
    }
}
