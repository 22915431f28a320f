package dev.proofline.topology.tlog;

import dev.proofline.tlog.LogRecords;
import dev.proofline.tlog.TilePath;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Keeps the published log on every instance: each record of the log topic as it is, and each
 * entry's index ({@link LogRecords#index}), read from the entry bundles as they arrive. The index
 * is derived here rather than published, so the sequencer writes nothing per entry: only tiles,
 * bundles and checkpoints, once per checkpoint. A bundle grows under one key; only the entries it
 * did not have before are indexed. Kafka Streams runs this processor again over the topic when it
 * restores the store, so the index is rebuilt with it.
 */
public final class PublishedLogIndexer implements ProcessorSupplier<String, byte[], Void, Void> {
    private final String storeName;

    public PublishedLogIndexer(String storeName) {
        this.storeName = storeName;
    }

    /** The global store this processor keeps. */
    public StoreBuilder<KeyValueStore<String, byte[]>> store() {
        return Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(storeName), Serdes.String(), Serdes.ByteArray())
                .withLoggingDisabled(); // a global store's changelog is the log topic itself
    }

    @Override
    public Processor<String, byte[], Void, Void> get() {
        return new Processor<>() {
            private KeyValueStore<String, byte[]> store;

            @Override
            public void init(ProcessorContext<Void, Void> context) {
                store = context.getStateStore(storeName);
            }

            @Override
            public void process(Record<String, byte[]> record) {
                if (record.key() == null) {
                    return;
                }
                TilePath tile = TilePath.parse(record.key()); // null for checkpoints
                if (record.value() != null && tile != null && tile.isEntries()) {
                    indexNewEntries(tile, record.key(), record.value());
                }
                if (record.value() == null) {
                    store.delete(record.key());
                } else {
                    store.put(record.key(), record.value());
                }
            }

            private void indexNewEntries(TilePath tile, String key, byte[] bundle) {
                long first = tile.index() * TilePath.WIDTH;
                byte[] before = store.get(key);
                int at = 0;
                for (long index = first; at + 2 <= bundle.length; index++) {
                    int length = ((bundle[at] & 0xFF) << 8) | (bundle[at + 1] & 0xFF);
                    int start = at + 2;
                    at = start + length;
                    if (at > bundle.length) {
                        return; // not a bundle the sequencer wrote; serve it, index nothing more
                    }
                    if (before == null || at > before.length) {
                        byte[] entry = Arrays.copyOfRange(bundle, start, at);
                        store.put(
                                LogRecords.index(entry),
                                ByteBuffer.allocate(Long.BYTES).putLong(index).array());
                    }
                }
            }
        };
    }
}
