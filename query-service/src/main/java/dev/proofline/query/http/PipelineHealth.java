package dev.proofline.query.http;

import java.util.List;

/**
 * What {@code /health} asks of the pipeline beyond its Kafka Streams state: the launcher answers
 * from the stream threads' progress, so a thread stuck on one record, or a pipeline that stopped
 * taking records while input waits, turns the answer to 503 with the reason.
 */
public interface PipelineHealth {
    PipelineHealth UNKNOWN = new PipelineHealth() {
        @Override
        public List<String> problems() {
            return List.of();
        }

        @Override
        public long threadsReplaced() {
            return 0;
        }
    };

    /** Why the pipeline is not healthy now, one reason per entry; empty when it is. */
    List<String> problems();

    /** Stream threads that died outside any record and were replaced since start. */
    long threadsReplaced();
}
