package dev.proofline.topology.tlog;

import dev.proofline.contract.ScoredAgents;
import dev.proofline.schemas.avro.Receipt;
import dev.proofline.tlog.LogRecords;
import dev.proofline.tlog.NoteKey;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The transparency log of receipts ({@code docs/tlog.md}). Each receipt but {@code test-} ones
 * becomes an entry, the SHA-256 of its signed JSON exactly as {@code GET /receipts/{id}} returns it;
 * the entries are repartitioned onto one partition so one {@link Sequencer} gives them a total order;
 * what it publishes (tiles, bundles, checkpoints) lands on the compacted log topic, which every
 * instance reads into a global store ({@link PublishedLogIndexer}, which also indexes the entries)
 * and serves from.
 */
public final class TransparencyLogTopology {
    /** The global store of the published log, on every instance. */
    public static final String STORE = "tlog";
    /** The sequencer's processor node. */
    public static final String SEQUENCER = "tlog-sequencer";
    /** The single-partition repartition of entries; its source opens the sequencer's sub-topology. */
    public static final String ENTRIES = "tlog-entries";

    private TransparencyLogTopology() {}

    public static void addTo(
            StreamsBuilder builder,
            KStream<String, Receipt> receipts,
            String logTopic,
            NoteKey key,
            Duration checkpointInterval,
            int checkpointEvery) {
        receipts.filter((agent, receipt) -> receipt != null && !ScoredAgents.isTestAgent(receipt.getAgentId()))
                // One partition, so the key routes nothing: an empty one keeps the repartition records small.
                .map((agent, receipt) -> KeyValue.pair("", LogRecords.entry(receipt.getSignedJson())))
                .repartition(Repartitioned.with(Serdes.String(), Serdes.ByteArray())
                        .withName(ENTRIES)
                        .withNumberOfPartitions(1))
                .process(new Sequencer(key, checkpointInterval, checkpointEvery), Named.as(SEQUENCER))
                .to(logTopic, Produced.with(Serdes.String(), Serdes.ByteArray()));
        PublishedLogIndexer published = new PublishedLogIndexer(STORE);
        builder.addGlobalStore(
                published.store(), logTopic, Consumed.with(Serdes.String(), Serdes.ByteArray()), published);
    }
}
