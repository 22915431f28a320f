package dev.proofline.topology.tlog;

import dev.proofline.tlog.Checkpoint;
import dev.proofline.tlog.LogAppender;
import dev.proofline.tlog.LogRecords;
import dev.proofline.tlog.MerkleHashes;
import dev.proofline.tlog.NoteKey;
import dev.proofline.tlog.SignedLogs;
import dev.proofline.tlog.TilePath;
import dev.proofline.tlog.WriteBackStore;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transparency log's sequencer: the one task that reads the single-partition entries topic
 * (batches of entries, {@link EntryBatcher}), gives each entry the next index, grows the tiles in its store and signs a checkpoint every
 * {@code interval} or every {@code every} entries, whichever comes first. What it forwards (the
 * tiles and bundles a checkpoint needs, then the checkpoint; nothing per entry, the instances index
 * the entries from the bundles: {@link PublishedLogIndexer}) goes out in the same
 * exactly-once transaction as its store's changes and its input offsets, so a crash can roll a
 * checkpoint back but never publish two roots for one size.
 */
public final class Sequencer implements ProcessorSupplier<String, byte[], String, byte[]> {
    /** The sequencer's own state: the right edge of the tree, per {@link LogAppender}. */
    public static final String STORE = "tlog-sequencer";

    private static final Logger LOG = LoggerFactory.getLogger(Sequencer.class);

    private final NoteKey key;
    private final SignedLogs signedLogs;
    private final String publishedStore;
    private final Duration interval;
    private final int every;

    /**
     * @param signedLogs     the logs {@code key} has signed: a log that is not the one it signed
     *                       before gets no checkpoint
     * @param publishedStore the global store of the published log, where a log that grew before its
     *                       first leaf was kept finds it (null: none)
     */
    public Sequencer(NoteKey key, SignedLogs signedLogs, String publishedStore, Duration interval, int every) {
        this.key = key;
        this.signedLogs = signedLogs;
        this.publishedStore = publishedStore;
        this.interval = interval;
        this.every = every;
    }

    @Override
    public Set<StoreBuilder<?>> stores() {
        return Set.of(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.String(), Serdes.ByteArray())
                        .withCachingEnabled());
    }

    @Override
    public Processor<String, byte[], String, byte[]> get() {
        return new SequencerProcessor();
    }

    private final class SequencerProcessor implements Processor<String, byte[], String, byte[]> {
        private ProcessorContext<String, byte[]> context;
        private LogAppender log;
        // The appender's writes, handed to the store once per batch or punctuation (WriteBackStore).
        private WriteBackStore writes;
        private String refusalLogged; // the last refusal told to the operator
        private boolean refusedThisInterval; // tried again at the next punctuation, not at every entry

        @Override
        public void init(ProcessorContext<String, byte[]> context) {
            this.context = context;
            KeyValueStore<String, byte[]> store = context.getStateStore(STORE);
            // New at every init: a task revived after a failed transaction starts from its store again.
            this.writes = new WriteBackStore(LogAppender.Store.of(store::get, store::put, store::delete));
            this.log = new LogAppender(writes);
            if (log.size() > 0 && log.firstLeaf().isEmpty()) {
                findFirstLeaf();
            }
            writes.flush();
            // Wall-clock time: a quiet log still gets its last entries checkpointed within the interval.
            context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, this::checkpointIfGrown);
        }

        /** A batch of entries ({@link EntryBatcher}): their digests one after another. */
        @Override
        public void process(Record<String, byte[]> batch) {
            byte[] entries = batch.value();
            if (entries == null || entries.length % MerkleHashes.SIZE != 0) {
                // Only our own batcher writes this internal topic; anything else is not an entry.
                LOG.warn(
                        "tlog: skipped a record of {} bytes on the entries topic, not a batch of digests",
                        entries == null ? 0 : entries.length);
                return;
            }
            for (int at = 0; at < entries.length; at += MerkleHashes.SIZE) {
                log.append(Arrays.copyOfRange(entries, at, at + MerkleHashes.SIZE));
                if (log.size() - log.checkpointed() >= every && !refusedThisInterval) {
                    checkpoint(batch.timestamp());
                }
            }
            writes.flush();
        }

        private void checkpointIfGrown(long now) {
            refusedThisInterval = false;
            if (log.size() > log.checkpointed() || !log.everCheckpointed()) {
                checkpoint(now);
            }
            writes.flush();
        }

        /** Tiles first, then the checkpoint: a reader that sees a checkpoint already has its tiles. */
        private void checkpoint(long timestamp) {
            if (!mayCheckpoint()) {
                return;
            }
            Map<String, byte[]> tiles = log.tilesToPublish();
            tiles.forEach((k, v) -> context.forward(new Record<>(k, v, timestamp)));
            byte[] note = key.sign(new Checkpoint(key.name(), log.size(), log.root()).text())
                    .getBytes(StandardCharsets.UTF_8);
            context.forward(new Record<>(LogRecords.checkpoint(log.size()), note, timestamp));
            context.forward(new Record<>(LogRecords.CHECKPOINT, note, timestamp));
            log.published(tiles);
        }

        /**
         * Whether this log is the one the key signed before. If not, entries are still appended (their
         * receipts are signed and published regardless) but no checkpoint is, until an operator gives
         * the log a name of its own ({@code tlog.origin}) or removes the record to start over.
         */
        private boolean mayCheckpoint() {
            Optional<String> refusal;
            try {
                refusal = log.size() == 0
                        ? signedLogs.admit(key, null)
                        : log.firstLeaf()
                                .map(leaf -> signedLogs.admit(key, leaf))
                                .orElse(Optional.empty());
            } catch (UncheckedIOException e) { // tried again at the next checkpoint
                refuse(
                        "cannot record: " + e.getCause().getClass().getSimpleName(),
                        "tlog: no checkpoint is signed until this log is recorded: {} ({})",
                        e.getMessage(),
                        e.getCause().getMessage());
                return false;
            }
            refusal.ifPresent(why -> refuse(
                    why,
                    "tlog: no checkpoint is signed: {}. Signing it would fork the log verifiers know. Set "
                            + "tlog.origin to name this log, or remove its line from {} in keys.dir and restart "
                            + "to start the old name over",
                    why,
                    SignedLogs.FILE));
            if (refusal.isEmpty()) {
                refusalLogged = null; // a later refusal is news again
            }
            return refusal.isEmpty();
        }

        /** One line for the operator per reason (a file name that changes each time is no new reason). */
        private void refuse(String reason, String message, Object... arguments) {
            refusedThisInterval = true;
            if (!reason.equals(refusalLogged)) {
                refusalLogged = reason;
                LOG.error(message, arguments);
            }
        }

        /**
         * A log that grew past its first tile before the sequencer kept entry 0's leaf: the published
         * tile 0, which every instance holds, starts with it.
         */
        private void findFirstLeaf() {
            byte[] tile = null;
            if (publishedStore != null) {
                KeyValueStore<String, byte[]> published = context.getStateStore(publishedStore);
                tile = published.get(new TilePath(0, 0, TilePath.WIDTH).storeKey());
            }
            if (tile != null && tile.length >= MerkleHashes.SIZE) {
                log.keepFirstLeaf(Arrays.copyOf(tile, MerkleHashes.SIZE));
            } else {
                LOG.warn("tlog: this log's first entry is not known here, so a second log under its name"
                        + " could not be told from it");
            }
        }
    }
}
