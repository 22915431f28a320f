package dev.proofline.topology.tlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proofline.schemas.TestReceipts;
import dev.proofline.schemas.avro.Receipt;
import dev.proofline.tlog.LogRecords;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

class EntryBatcherTest {
    /**
     * After a failed transaction Streams initializes the same processor again, its store back at
     * what was committed. Nothing the aborted work had counted may survive into the next batch:
     * here the store was empty when committed, and the batch holds the one entry since.
     */
    @Test
    void aProcessorInitializedAgainCountsOnlyWhatItsStoreHolds() {
        MockProcessorContext<String, byte[]> context = new MockProcessorContext<>();
        KeyValueStore<String, byte[]> store = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(EntryBatcher.STORE), Serdes.String(), Serdes.ByteArray())
                .withLoggingDisabled()
                .build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        Processor<String, Receipt, String, byte[]> batcher = new EntryBatcher(Duration.ofMillis(100)).get();
        batcher.init(context);
        for (int i = 0; i < 150; i++) { // three chunks
            batcher.process(new Record<>("agent-1", TestReceipts.numbered(i, "agent-1"), 0L));
        }
        try (KeyValueIterator<String, byte[]> all = store.all()) { // the transaction is aborted
            List<KeyValue<String, byte[]>> written = new java.util.ArrayList<>();
            all.forEachRemaining(written::add);
            written.forEach(kv -> store.delete(kv.key));
        }
        context.resetForwards();
        batcher.init(context);
        batcher.process(new Record<>("agent-1", TestReceipts.numbered(1000, "agent-1"), 0L));
        context.scheduledPunctuators()
                .get(context.scheduledPunctuators().size() - 1)
                .getPunctuator()
                .punctuate(0L);

        List<MockProcessorContext.CapturedForward<? extends String, ? extends byte[]>> batches = context.forwarded();
        assertEquals(1, batches.size());
        assertArrayEquals(
                LogRecords.entry(TestReceipts.numbered(1000, "agent-1").getSignedJson()),
                batches.get(0).record().value());
    }
}
