package dev.proofline.reputation;

import dev.proofline.schemas.avro.Receipt;
import dev.proofline.schemas.avro.ScoreUpdate;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.common.utils.Bytes;

/**
 * SPEC section 5 as a KTable: {@code receipts} (keyed by agent id) → counted receipts only →
 * {@code agent-history} store, backed by its changelog and queryable → every change published to
 * the compacted {@code agent-scores} topic. It reads nothing but the receipts topic, so replaying
 * receipts into a fresh application id rebuilds the same scores.
 */
public final class ReputationTopology {
    public static final String STORE = "agent-history";
    public static final String SCORES_TOPIC = "agent-scores";

    private ReputationTopology() {
    }

    public static KTable<String, AgentHistory> addTo(StreamsBuilder builder, String receiptsTopic,
                                                     Serde<Receipt> receipts, Serde<ScoreUpdate> scores) {
        KTable<String, AgentHistory> histories = builder
                .stream(receiptsTopic, Consumed.with(Serdes.String(), receipts))
                .filter((key, receipt) -> receipt != null && AgentHistory.counts(receipt))
                // Receipts are keyed by agent id whenever there is one (Receipts.key), so no repartition.
                .groupByKey(Grouped.with(Serdes.String(), receipts))
                .aggregate(() -> null,
                        (agent, receipt, history) -> (history == null ? AgentHistory.empty(agent) : history).with(receipt),
                        Materialized.<String, AgentHistory, KeyValueStore<Bytes, byte[]>>as(STORE)
                                .withKeySerde(Serdes.String()).withValueSerde(new AgentHistorySerde()));
        histories.toStream()
                .mapValues(ReputationTopology::scoreUpdate)
                .to(SCORES_TOPIC, Produced.with(Serdes.String(), scores));
        return histories;
    }

    static ScoreUpdate scoreUpdate(AgentHistory h) {
        return ScoreUpdate.newBuilder()
                .setAgentId(h.agentId())
                .setPassed(h.passed())
                .setFailed(h.failed())
                .setFirstVerifiedAt(h.firstVerifiedAt())
                .setLastVerifiedAt(h.lastVerifiedAt())
                .setLastResult(h.lastResult())
                .setTrustScore(TrustScore.rounded(h.trustScore()))
                .setScoreMethod(TrustScore.METHOD)
                .build();
    }
}
