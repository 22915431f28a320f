package dev.proofline.launcher;

import dev.proofline.query.http.PipelineHealth;
import dev.proofline.topology.PassLimit;
import dev.proofline.topology.PassTooLong;
import dev.proofline.topology.PipelineProgress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.Metric;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the truth about the stream threads for {@code /health}: a thread on one record for longer
 * than {@link #STUCK} (the work budget keeps a record near a second, so this means something is
 * wrong), or no record finished for {@link #STALLED} while input waits, is unhealthy with the
 * reason. A thread that dies is replaced, counted in {@code /metrics} and shown here.
 */
final class StreamThreadHealth implements PipelineHealth {
    private static final Logger LOG = LoggerFactory.getLogger(StreamThreadHealth.class);
    static final Duration STUCK = Duration.ofSeconds(30);
    static final Duration STALLED = Duration.ofSeconds(60);

    private final KafkaStreams streams;
    private final PipelineProgress progress;
    private final PrometheusMetrics metrics;
    private final ReplacedThreadMembers members;
    private final AtomicLong replaced = new AtomicLong();

    StreamThreadHealth(
            KafkaStreams streams, PipelineProgress progress, PrometheusMetrics metrics, ReplacedThreadMembers members) {
        this.streams = streams;
        this.progress = progress;
        this.metrics = metrics;
        this.members = members;
    }

    /**
     * The uncaught-exception handler, run on the dying thread: a new one takes its place, and its
     * partitions. Either the thread died outside any record (no record can fail it: the engine
     * answers every one), or {@link PassLimit} ended a pass that had run too long.
     */
    StreamThreadExceptionResponse replace(Throwable cause) {
        replaced.incrementAndGet();
        metrics.threadReplaced();
        Optional<PassTooLong> pass = passTooLong(cause);
        if (pass.isPresent()) {
            metrics.passCut();
            LOG.warn(
                    "{}: the stream thread is replaced and its pass verified again",
                    pass.get().getMessage());
        } else {
            LOG.error(
                    "a stream thread died and is replaced: {}", cause.getClass().getSimpleName());
        }
        members.removeOnceEnded(Thread.currentThread());
        return StreamThreadExceptionResponse.REPLACE_THREAD;
    }

    private static Optional<PassTooLong> passTooLong(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof PassTooLong pass) {
                return Optional.of(pass);
            }
        }
        return Optional.empty();
    }

    @Override
    public long threadsReplaced() {
        return replaced.get();
    }

    @Override
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        progress.longestInFlight()
                .filter(d -> d.compareTo(STUCK) > 0)
                .ifPresent(d -> problems.add("a stream thread has been on one record for " + d.toSeconds() + " s"));
        Duration idle = progress.sinceLastFinished();
        if (streams.state() == KafkaStreams.State.RUNNING && idle.compareTo(STALLED) > 0 && inputWaiting()) {
            problems.add("no record finished for " + idle.toSeconds() + " s while input waits");
        }
        return problems;
    }

    /** Whether a stream thread's consumer reports records it has not read yet (records-lag-max above 0). */
    private boolean inputWaiting() {
        for (Metric metric : streams.metrics().values()) {
            String clientId = metric.metricName().tags().getOrDefault("client-id", "");
            if (metric.metricName().name().equals("records-lag-max")
                    && metric.metricName().group().equals("consumer-fetch-manager-metrics")
                    && !clientId.contains("restore")
                    && metric.metricValue() instanceof Double lag
                    && lag > 0) {
                return true;
            }
        }
        return false;
    }
}
