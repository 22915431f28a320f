package dev.proofline.reputation;

import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorSupplier;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * Keeps a task's {@link AgentRankings} ranking in step with its agent histories: built from the
 * history store when the task starts (processors start after restoration, so the histories are
 * complete), then each history change moves its agent's row.
 */
final class RankAgents implements FixedKeyProcessor<String, AgentHistory, AgentHistory> {
    private final AgentRankings rankings;
    private FixedKeyProcessorContext<String, AgentHistory> context;
    private AgentRankings.Ranking ranking;
    private int partition;

    private RankAgents(AgentRankings rankings) {
        this.rankings = rankings;
    }

    static FixedKeyProcessorSupplier<String, AgentHistory, AgentHistory> supplier(AgentRankings rankings) {
        return () -> new RankAgents(rankings);
    }

    @Override
    public void init(FixedKeyProcessorContext<String, AgentHistory> context) {
        this.context = context;
        this.partition = context.taskId().partition();
        AgentRankings.Ranking fresh = new AgentRankings.Ranking();
        TimestampedKeyValueStore<String, AgentHistory> histories = context.getStateStore(ReputationTopology.STORE);
        try (KeyValueIterator<String, ValueAndTimestamp<AgentHistory>> all = histories.all()) {
            all.forEachRemaining(entry -> {
                if (entry.value != null && entry.value.value() != null) {
                    fresh.update(AgentSummary.of(entry.value.value()));
                }
            });
        }
        this.ranking = rankings.start(partition, fresh);
    }

    @Override
    public void process(FixedKeyRecord<String, AgentHistory> record) {
        if (record.value() != null) {
            ranking.update(AgentSummary.of(record.value()));
        }
        context.forward(record);
    }

    @Override
    public void close() {
        if (ranking != null) {
            rankings.stop(partition, ranking);
        }
    }
}
