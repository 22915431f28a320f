package dev.proofline.reputation;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorSupplier;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * Keeps {@link AgentRanks} in step with the agent histories: each history update moves its agent's
 * rank entry. The rank store has no changelog (it would add writes for every score change): it is
 * derived from the history store, so each task rebuilds it from that store when it starts, which is
 * after restoration, so the histories are complete.
 */
final class RankAgents implements FixedKeyProcessor<String, AgentHistory, AgentHistory> {
    private FixedKeyProcessorContext<String, AgentHistory> context;
    private KeyValueStore<Bytes, byte[]> ranks;
    private long agents;

    static FixedKeyProcessorSupplier<String, AgentHistory, AgentHistory> supplier() {
        return RankAgents::new;
    }

    @Override
    public void init(FixedKeyProcessorContext<String, AgentHistory> context) {
        this.context = context;
        this.ranks = context.getStateStore(AgentRanks.STORE);
        TimestampedKeyValueStore<String, AgentHistory> histories = context.getStateStore(ReputationTopology.STORE);
        clear();
        agents = 0;
        try (KeyValueIterator<String, ValueAndTimestamp<AgentHistory>> all = histories.all()) {
            all.forEachRemaining(entry -> {
                if (entry.value != null && entry.value.value() != null) {
                    rank(entry.value.value());
                }
            });
        }
        ranks.put(AgentRanks.COUNT, AgentRanks.count(agents));
    }

    @Override
    public void process(FixedKeyRecord<String, AgentHistory> record) {
        if (record.value() != null) {
            long before = agents;
            rank(record.value());
            if (agents != before) {
                ranks.put(AgentRanks.COUNT, AgentRanks.count(agents));
            }
        }
        context.forward(record);
    }

    private void rank(AgentHistory history) {
        Bytes agentKey = AgentRanks.agentKey(history.agentId());
        Bytes rankKey = AgentRanks.rankKey(history.agentId(), history.passed(), history.failed());
        byte[] previous = ranks.get(agentKey);
        if (previous == null) {
            agents++;
        } else if (!Bytes.wrap(previous).equals(rankKey)) {
            ranks.delete(Bytes.wrap(previous));
        }
        ranks.put(rankKey, AgentRanks.row(AgentSummary.of(history))); // the row changes even when the rank does not
        if (previous == null || !Bytes.wrap(previous).equals(rankKey)) {
            ranks.put(agentKey, rankKey.get());
        }
    }

    /** A store without a changelog may hold what an earlier run left: start from nothing, a batch at a time. */
    private void clear() {
        List<Bytes> batch = new ArrayList<>();
        do {
            batch.clear();
            try (KeyValueIterator<Bytes, byte[]> all = ranks.all()) {
                while (all.hasNext() && batch.size() < 10_000) {
                    batch.add(all.next().key);
                }
            }
            batch.forEach(ranks::delete);
        } while (!batch.isEmpty());
    }
}
