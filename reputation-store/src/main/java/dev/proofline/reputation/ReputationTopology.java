package dev.proofline.reputation;

import dev.proofline.contract.ReceiptFields;
import dev.proofline.contract.ScoredAgents;
import dev.proofline.contract.Topics;
import dev.proofline.schemas.avro.Receipt;
import dev.proofline.schemas.avro.ScoreUpdate;
import java.time.Duration;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trust scores ({@code docs/scores.md}) as a KTable: {@code receipts} (keyed by agent id) → every receipt indexed by
 * verification id ({@code receipt-index}) → counted receipts only →
 * {@code agent-history} store (lifetime and decayed counts), backed by its changelog and queryable,
 * and the {@code agent-daily} windowed store (counts per UTC day of verification) → each history change ranked in
 * {@link AgentRankings} (leaderboard order, in memory, rebuilt from the histories) and published to
 * the compacted scores topic ({@code agent-scores} by default). It reads nothing but the receipts topic, so replaying
 * receipts into a fresh application id rebuilds the same scores.
 */
public final class ReputationTopology {
    public static final String STORE = "agent-history";
    /** verification id → where its receipt is in the receipts topic, kept for the configured retention. */
    public static final String RECEIPT_INDEX = "receipt-index";
    /** Counted receipts per agent per UTC day (windowed by verification time), for the 1, 7 and 30 day figures. */
    public static final String DAILY = "agent-daily";
    /** How late (in verification time) a receipt may arrive and still land in its day. */
    public static final Duration DAILY_GRACE = Duration.ofDays(1);
    /** How long day windows are kept: at least 32 days, so a 30-day window can be asked as of yesterday. */
    public static final Duration DAILY_RETENTION = Duration.ofDays(33);

    private ReputationTopology() {}

    public static KTable<String, AgentHistory> addTo(
            StreamsBuilder builder,
            Topics topics,
            Serde<Receipt> receipts,
            Serde<ScoreUpdate> scores,
            Duration indexRetention,
            Duration halfLife,
            AgentRankings rankings) {
        return addTo(builder, receipts(builder, topics, receipts), topics, scores, indexRetention, halfLife, rankings);
    }

    /**
     * The receipts topic as a stream, its event time the verification time, so late and replayed
     * receipts land in their own day. Read once; every topology that follows receipts branches from it.
     */
    public static KStream<String, Receipt> receipts(StreamsBuilder builder, Topics topics, Serde<Receipt> receipts) {
        return builder.stream(
                topics.receipts(), Consumed.with(Serdes.String(), receipts).withTimestampExtractor(new VerifiedAt()));
    }

    public static KTable<String, AgentHistory> addTo(
            StreamsBuilder builder,
            KStream<String, Receipt> receiptStream,
            Topics topics,
            Serde<ScoreUpdate> scores,
            Duration indexRetention,
            Duration halfLife,
            AgentRankings rankings) {
        builder.addStateStore(Stores.windowStoreBuilder(
                CheckpointedWindowStore.supplier(
                        Stores.persistentWindowStore(RECEIPT_INDEX, indexRetention, Duration.ofMillis(1), false)),
                Serdes.String(),
                new ReceiptPosition.ReceiptPositionSerde()));
        KGroupedStream<String, PositionedReceipt> byAgent = receiptStream
                .filter((key, receipt) -> receipt != null)
                // Every receipt but test- ones is indexed by verification id; then only counted ones score.
                .processValues(ReceiptPositions::new, RECEIPT_INDEX)
                .filter((key, positioned) -> AgentHistory.counts(positioned.receipt()))
                // Receipts are keyed by agent id whenever there is one (Receipts.key), so no repartition,
                // and the grouping serde is never used.
                .groupByKey(Grouped.<String, PositionedReceipt>with(Serdes.String(), null));
        KTable<String, AgentHistory> histories = byAgent.aggregate(
                () -> null,
                (agent, positioned, history) -> (history == null ? AgentHistory.empty(agent) : history)
                        .with(positioned.receipt(), positioned.partition(), positioned.offset(), halfLife),
                Materialized.<String, AgentHistory, KeyValueStore<Bytes, byte[]>>as(STORE)
                        .withKeySerde(Serdes.String())
                        .withValueSerde(new AgentHistorySerde()));
        byAgent.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofDays(1), DAILY_GRACE))
                .aggregate(
                        () -> DailyCounts.ZERO,
                        (agent, positioned, counts) -> counts.with(
                                ReceiptFields.PASS.equals(positioned.receipt().getResult())),
                        // The store the DSL would choose by default, its offsets kept beside it.
                        Materialized.<String, DailyCounts>as(
                                        CheckpointedWindowStore.supplier(Stores.persistentTimestampedWindowStore(
                                                DAILY, DAILY_RETENTION, Duration.ofDays(1), false)))
                                .withKeySerde(Serdes.String())
                                .withValueSerde(new DailyCounts.DailyCountsSerde())
                                // Streams sizes the changelog's retention from this, not the supplier's.
                                .withRetention(DAILY_RETENTION));
        histories
                .toStream()
                .processValues(RankAgents.supplier(rankings), STORE)
                .mapValues(ReputationTopology::scoreUpdate)
                .to(topics.scores(), Produced.with(Serdes.String(), scores));
        return histories;
    }

    /** A receipt and where it sits in the receipts topic, so the dashboard can read it back. */
    record PositionedReceipt(Receipt receipt, int partition, long offset) {}

    /**
     * Attaches the record's partition and offset, which the DSL's aggregator cannot see, and indexes
     * the receipt's verification id by that position (windowed by the record's time, so the index
     * forgets after its retention). A receipt Proofline could not have written goes no further
     * ({@link ForeignReceipts}).
     */
    private static final class ReceiptPositions implements FixedKeyProcessor<String, Receipt, PositionedReceipt> {
        private static final Logger LOG = LoggerFactory.getLogger(ReputationTopology.class);
        private FixedKeyProcessorContext<String, PositionedReceipt> context;
        private WindowStore<String, ReceiptPosition> index;

        @Override
        public void init(FixedKeyProcessorContext<String, PositionedReceipt> context) {
            this.context = context;
            this.index = context.getStateStore(RECEIPT_INDEX);
        }

        @Override
        public void process(FixedKeyRecord<String, Receipt> record) {
            var metadata = context.recordMetadata();
            int partition = metadata.map(m -> m.partition()).orElse(-1);
            long offset = metadata.map(m -> m.offset()).orElse(-1L);
            Optional<String> foreign = ForeignReceipts.problem(record.value());
            if (foreign.isPresent()) {
                LOG.warn(
                        "Skipped the record at partition {} offset {} of the receipts topic: {}, so Proofline did"
                                + " not write it",
                        partition,
                        offset,
                        foreign.get());
                return;
            }
            if (partition >= 0 && indexes(record.value().getAgentId())) {
                index.put(
                        record.value().getVerificationId(), new ReceiptPosition(partition, offset), record.timestamp());
            }
            context.forward(record.withValue(new PositionedReceipt(record.value(), partition, offset)));
        }
    }

    /**
     * Whether Proofline could have written this record of the receipts topic ({@link ForeignReceipts}):
     * what scores and the receipt index take in, and what the transparency log may log (it is
     * append-only, so what it must not hold has to be kept out). The score side logs each one it skips.
     */
    public static boolean couldBeProoflines(Receipt receipt) {
        return receipt != null && ForeignReceipts.problem(receipt).isEmpty();
    }

    /**
     * Whether the receipts index finds this agent's receipts by id. A test- receipt goes back to its
     * caller only: never listed, so never indexed either.
     */
    public static boolean indexes(String agentId) {
        return !ScoredAgents.isTestAgent(agentId);
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
