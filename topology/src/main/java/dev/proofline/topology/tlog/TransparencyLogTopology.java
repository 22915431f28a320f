package dev.proofline.topology.tlog;

import dev.proofline.schemas.avro.Receipt;
import dev.proofline.tlog.NoteKey;
import dev.proofline.tlog.SignedLogs;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The transparency log of receipts ({@code docs/tlog.md}). Each receipt but {@code test-} ones
 * becomes an entry, the SHA-256 of its signed JSON exactly as {@code GET /receipts/{id}} returns it;
 * each receipts task gathers its entries into a batch ({@link EntryBatcher}) and the batches are
 * repartitioned onto one partition, so one {@link Sequencer} gives the entries a total order;
 * what it publishes (tiles, bundles, checkpoints) lands on the compacted log topic, which every
 * instance reads into a global store ({@link PublishedLogIndexer}, which also indexes the entries)
 * and serves from.
 */
public final class TransparencyLogTopology {
    /** The global store of the published log, on every instance. */
    public static final String STORE = "tlog";
    /** The sequencer's processor node. */
    public static final String SEQUENCER = "tlog-sequencer";
    /** The processor gathering each receipts task's entries into batches for the sequencer. */
    public static final String BATCHER = "tlog-batcher";
    /** The single-partition repartition of entry batches; its source opens the sequencer's sub-topology. */
    public static final String ENTRIES = "tlog-entries";

    /** Longest an entry waits for its batch: well under a checkpoint interval, so batching delays no checkpoint much. */
    static final Duration MAX_BATCH_INTERVAL = Duration.ofMillis(100);

    private TransparencyLogTopology() {}

    static Duration batchInterval(Duration checkpointInterval) {
        return checkpointInterval.compareTo(MAX_BATCH_INTERVAL) < 0 ? checkpointInterval : MAX_BATCH_INTERVAL;
    }

    public static void addTo(
            StreamsBuilder builder,
            KStream<String, Receipt> receipts,
            String logTopic,
            NoteKey key,
            SignedLogs signedLogs,
            Duration checkpointInterval,
            int checkpointEvery) {
        receipts.process(new EntryBatcher(batchInterval(checkpointInterval)), Named.as(BATCHER))
                .repartition(Repartitioned.with(Serdes.String(), Serdes.ByteArray())
                        .withName(ENTRIES)
                        .withNumberOfPartitions(1))
                .process(
                        new Sequencer(key, signedLogs, STORE, checkpointInterval, checkpointEvery), Named.as(SEQUENCER))
                .to(logTopic, Produced.with(Serdes.String(), Serdes.ByteArray()));
        PublishedLogIndexer published = new PublishedLogIndexer(STORE);
        builder.addGlobalStore(
                published.store(), logTopic, Consumed.with(Serdes.String(), Serdes.ByteArray()), published);
    }
}
