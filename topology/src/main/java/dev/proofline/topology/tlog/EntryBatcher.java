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
 *
 * <p>The pending entries are kept in chunks of {@link #CHUNK_ENTRIES} under their own keys, so an
 * entry copies at most one chunk: one value for the whole batch made every entry copy the batch so
 * far, quadratic in the entries of a batch. The first chunk's key is the one the single value had,
 * so pending entries written before chunking are still handed on.
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
    /** Entries under one key of the pending store (2 KiB of digests). */
    static final int CHUNK_ENTRIES = 64;

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

    /** The key of the {@code index}th chunk: they sort in order, and the first is the old single key. */
    static String chunkKey(int index) {
        return index == 0 ? PENDING : String.format("%s/%03d", PENDING, index);
    }

    private final class Batching implements Processor<String, Receipt, String, byte[]> {
        private ProcessorContext<String, byte[]> context;
        private KeyValueStore<String, byte[]> pending;
        // What the store holds, known without reading it back: chunks in use, bytes in all of them,
        // and the last chunk (the one an entry is appended to).
        private int chunks;
        private int pendingBytes;
        private byte[] lastChunk;

        @Override
        public void init(ProcessorContext<String, byte[]> context) {
            this.context = context;
            this.pending = context.getStateStore(STORE);
            // After a restart the store holds what the changelog restored: count it once. The same
            // processor is initialized again after a failed transaction (its task revived), with the
            // store back at what was committed: nothing counted before is true any more.
            chunks = 0;
            pendingBytes = 0;
            lastChunk = null;
            for (int i = 0; ; i++) {
                byte[] chunk = pending.get(chunkKey(i));
                if (chunk == null) {
                    break;
                }
                chunks = i + 1;
                pendingBytes += chunk.length;
                lastChunk = chunk;
            }
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
            if (lastChunk == null || lastChunk.length >= CHUNK_ENTRIES * entry.length) {
                lastChunk = entry;
                chunks++;
            } else {
                byte[] longer = Arrays.copyOf(lastChunk, lastChunk.length + entry.length);
                System.arraycopy(entry, 0, longer, lastChunk.length, entry.length);
                lastChunk = longer;
            }
            pending.put(chunkKey(chunks - 1), lastChunk);
            pendingBytes += entry.length;
            if (pendingBytes >= MAX_ENTRIES * entry.length) {
                handOn(record.timestamp());
            }
        }

        private void handOn(long timestamp) {
            if (chunks == 0) {
                return;
            }
            byte[] batch = new byte[pendingBytes];
            int at = 0;
            for (int i = 0; i < chunks; i++) {
                String key = chunkKey(i);
                byte[] chunk = pending.get(key);
                System.arraycopy(chunk, 0, batch, at, chunk.length);
                at += chunk.length;
                pending.delete(key);
            }
            // One partition downstream, so the key routes nothing: an empty one keeps records small.
            context.forward(new Record<>("", batch, timestamp));
            chunks = 0;
            pendingBytes = 0;
            lastChunk = null;
        }
    }
}
