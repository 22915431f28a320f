package dev.proofline.reputation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.internals.WithRetentionPeriod;
import org.junit.jupiter.api.Test;

/** The wrapper changes who keeps the offsets and nothing else Streams looks at. */
class CheckpointedWindowStoreTest {
    @Test
    void leavesItsOffsetsToStreamsCheckpointFile() {
        var rocksDb = Stores.persistentWindowStore("index", Duration.ofDays(7), Duration.ofMillis(1), false);
        assertTrue(rocksDb.get().managesOffsets(), "the reason for the wrapper: segments keep them");

        var store = CheckpointedWindowStore.supplier(rocksDb).get();

        assertFalse(store.managesOffsets());
        assertNull(store.committedOffset(new TopicPartition("index-changelog", 0)));
        assertTrue(store.persistent());
        assertFalse(store instanceof TimestampedBytesStore);
    }

    @Test
    void keepsTheSuppliersShapeAndTheStoresRetention() {
        WindowBytesStoreSupplier rocksDb =
                Stores.persistentTimestampedWindowStore("daily", Duration.ofDays(33), Duration.ofDays(1), false);
        WindowBytesStoreSupplier wrapped = CheckpointedWindowStore.supplier(rocksDb);

        assertEquals(rocksDb.name(), wrapped.name());
        assertEquals(rocksDb.metricsScope(), wrapped.metricsScope());
        assertEquals(rocksDb.windowSize(), wrapped.windowSize());
        assertEquals(rocksDb.segmentIntervalMs(), wrapped.segmentIntervalMs());
        assertEquals(rocksDb.retentionPeriod(), wrapped.retentionPeriod());
        assertEquals(rocksDb.retainDuplicates(), wrapped.retainDuplicates());
        var store = wrapped.get();
        assertInstanceOf(TimestampedBytesStore.class, store, "the DSL keeps the timestamped format, no adapter");
        assertEquals(
                WithRetentionPeriod.resolveRetentionPeriod(rocksDb.get()),
                WithRetentionPeriod.resolveRetentionPeriod(store),
                "a restore can still skip expired changelog records");
    }
}
