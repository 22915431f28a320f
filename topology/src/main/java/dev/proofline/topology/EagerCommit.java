package dev.proofline.topology;

import java.time.Duration;

/**
 * When a verified request asks Kafka Streams to commit at once instead of waiting for the commit
 * interval. A receipt is only visible (and a REST caller only answered) once the exactly-once
 * transaction commits, so a lone request would otherwise wait up to the whole interval; but a
 * commit per record would cost a backlog most of its throughput. The request's age when its
 * verification starts tells the two apart: within {@code maxAge} of being written means the pipeline keeps up,
 * and committing now costs one transaction per pass of the stream thread's loop (the records that
 * arrive during a commit are batched into the next); an older one means a backlog, which is left
 * to the commit interval. Group commit, in short, steered by lag.
 */
public record EagerCommit(Duration maxAge) {
    /** Never ask: commits follow the commit interval alone. */
    public static final EagerCommit NEVER = new EagerCommit(Duration.ZERO);

    /** Whether a request written at {@code writtenAt} whose verification starts at {@code now} (epoch ms) commits at once. */
    boolean due(long writtenAt, long now) {
        return !maxAge.isZero() && now - writtenAt <= maxAge.toMillis();
    }
}
