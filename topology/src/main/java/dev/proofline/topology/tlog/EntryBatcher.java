package dev.proofline.topology.tlog;

import dev.proofline.contract.ScoredAgents;
import dev.proofline.schemas.avro.Receipt;
import dev.proofline.tlog.LogRecords;
import java.time.Duration;
import java.util.Arrays;
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

/**
 * Gathers a receipts task's log entries and hands them to the sequencer together, one record every
 * {@code interval} instead of one per receipt: the single sequencer task then handles a few records
 * a second rather than one per receipt. One record per receipt was what held the log back: its one
 * task, on one thread, finished after the verification tasks.
 *
 * <p>The entries waiting for the next batch live in a cached state store, not in memory: a commit
 * can fall between a receipt and the batch that carries its entry, and the store's changelog
 * commits with the input offsets, so a crash restores exactly the entries whose receipts were
 * committed and not yet handed on. With the cache, the store writes its changelog at most once per
 * commit. A batch is the entries' 32-byte digests one after another; the sequencer reads one
 * digest alone (the format before batching) as a batch of one.
 */
public final class EntryBatcher implements ProcessorSupplier<String, Receipt, String, byte[]> {
    /** The task's entries not yet handed to the sequencer. */
    public static final String STORE = "tlog-pending";

    private static final String PENDING = "pending";
    /**
     * A batch is handed on at once when it holds this many entries (128 KiB), whatever the time: a
     * batch stays one small record even if punctuation runs late.
     */
    static final int MAX_ENTRIES = 4096;

    private final Duration interval;

    public EntryBatcher(Duration interval) {
        this.interval = interval;
    }

    @Override
    public Set<StoreBuilder<?>> stores() {
        return Set.of(
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(STORE), Serdes.String(), Serdes.ByteArray())
                        .withCachingEnabled());
    }

    @Override
    public Processor<String, Receipt, String, byte[]> get() {
        return new Batching();
    }

    private final class Batching implements Processor<String, Receipt, String, byte[]> {
        private ProcessorContext<String, byte[]> context;
        private KeyValueStore<String, byte[]> pending;

        @Override
        public void init(ProcessorContext<String, byte[]> context) {
            this.context = context;
            this.pending = context.getStateStore(STORE);
            // Wall-clock time: the last entries before a quiet spell still reach the log.
            context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, this::handOn);
        }

        @Override
        public void process(Record<String, Receipt> record) {
            Receipt receipt = record.value();
            if (receipt == null || ScoredAgents.isTestAgent(receipt.getAgentId())) {
                return;
            }
            byte[] entry = LogRecords.entry(receipt.getSignedJson());
            byte[] before = pending.get(PENDING);
            if (before == null) {
                pending.put(PENDING, entry);
                return;
            }
            byte[] after = Arrays.copyOf(before, before.length + entry.length);
            System.arraycopy(entry, 0, after, before.length, entry.length);
            if (after.length >= MAX_ENTRIES * entry.length) {
                handOn(after, record.timestamp());
            } else {
                pending.put(PENDING, after);
            }
        }

        private void handOn(long now) {
            byte[] batch = pending.get(PENDING);
            if (batch != null) {
                handOn(batch, now);
            }
        }

        private void handOn(byte[] batch, long timestamp) {
            // One partition downstream, so the key routes nothing: an empty one keeps records small.
            context.forward(new Record<>("", batch, timestamp));
            pending.delete(PENDING);
        }
    }
}
