package dev.proofline.reputation;

import java.util.Map;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.apache.kafka.streams.state.internals.WithRetentionPeriod;

/**
 * A persistent window store whose changelog offsets are kept in a checkpoint file beside it rather
 * than in its segments; everything else is the RocksDB window store it wraps, byte for byte.
 *
 * <p>Why: Kafka Streams 4.4.0 keeps a RocksDB window store's committed offsets inside its segments
 * (KIP-1035). A store that holds no segment (a partition none of whose receipts it keeps yet, or
 * whose segments have all expired) has nowhere to keep them, so after a clean stop it reports none
 * while its directory exists. Under exactly-once Streams takes that for a crash: it declares the whole
 * task corrupted, wipes every store of the task, restores them all from their changelogs and logs an
 * ERROR with stack traces, at every restart. A store that says it does not manage its offsets is
 * wrapped by Streams in its legacy checkpointing instead: a {@code .checkpoint_<store>} file written on
 * a clean close (an empty store's "nothing yet" included) and deleted when the store opens under
 * exactly-once, so a crash is still detected. {@code RestartIT} restarts a node with empty stores.
 *
 * <p>It says its retention through Streams' internal {@link WithRetentionPeriod}, as the RocksDB
 * store does, so a restore still skips changelog records older than the retention.
 */
class CheckpointedWindowStore implements WindowStore<Bytes, byte[]>, WithRetentionPeriod {
    private final WindowStore<Bytes, byte[]> inner;
    private final long retentionPeriod;

    CheckpointedWindowStore(WindowStore<Bytes, byte[]> inner, long retentionPeriod) {
        this.inner = inner;
        this.retentionPeriod = retentionPeriod;
    }

    /** {@code rocksDb}'s stores, each wrapped; timestamped ones stay timestamped. */
    static WindowBytesStoreSupplier supplier(WindowBytesStoreSupplier rocksDb) {
        return new Supplier(rocksDb);
    }

    @Override
    public boolean managesOffsets() {
        return false;
    }

    @Override
    public Long committedOffset(TopicPartition partition) {
        return null;
    }

    @Override
    public long retentionPeriod() {
        return retentionPeriod;
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        inner.commit(changelogOffsets);
    }

    @Override
    @SuppressWarnings("deprecation")
    public void flush() {
        inner.flush();
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        inner.init(context, root);
    }

    @Override
    public void close() {
        inner.close();
    }

    @Override
    public boolean persistent() {
        return inner.persistent();
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return inner.query(query, positionBound, config);
    }

    @Override
    public Position getPosition() {
        return inner.getPosition();
    }

    @Override
    public long approximateNumUncommittedBytes() {
        return inner.approximateNumUncommittedBytes();
    }

    @Override
    public ReadOnlyWindowStore<Bytes, byte[]> readOnly(IsolationLevel isolationLevel) {
        return inner.readOnly(isolationLevel);
    }

    @Override
    public void put(Bytes key, byte[] value, long windowStartTimestamp) {
        inner.put(key, value, windowStartTimestamp);
    }

    @Override
    public byte[] fetch(Bytes key, long time) {
        return inner.fetch(key, time);
    }

    @Override
    public WindowStoreIterator<byte[]> fetch(Bytes key, long timeFrom, long timeTo) {
        return inner.fetch(key, timeFrom, timeTo);
    }

    @Override
    public WindowStoreIterator<byte[]> backwardFetch(Bytes key, long timeFrom, long timeTo) {
        return inner.backwardFetch(key, timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo) {
        return inner.fetch(keyFrom, keyTo, timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(
            Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo) {
        return inner.backwardFetch(keyFrom, keyTo, timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetchAll(long timeFrom, long timeTo) {
        return inner.fetchAll(timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetchAll(long timeFrom, long timeTo) {
        return inner.backwardFetchAll(timeFrom, timeTo);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> all() {
        return inner.all();
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardAll() {
        return inner.backwardAll();
    }

    /** The timestamped form: the DSL's windowed aggregations keep a value's timestamp with it. */
    static final class Timestamped extends CheckpointedWindowStore implements TimestampedBytesStore {
        Timestamped(WindowStore<Bytes, byte[]> inner, long retentionPeriod) {
            super(inner, retentionPeriod);
        }
    }

    private record Supplier(WindowBytesStoreSupplier rocksDb) implements WindowBytesStoreSupplier {
        @Override
        public WindowStore<Bytes, byte[]> get() {
            WindowStore<Bytes, byte[]> store = rocksDb.get();
            long retention = rocksDb.retentionPeriod();
            return store instanceof TimestampedBytesStore
                    ? new Timestamped(store, retention)
                    : new CheckpointedWindowStore(store, retention);
        }

        @Override
        public String name() {
            return rocksDb.name();
        }

        @Override
        public String metricsScope() {
            return rocksDb.metricsScope();
        }

        @Override
        public long segmentIntervalMs() {
            return rocksDb.segmentIntervalMs();
        }

        @Override
        public long windowSize() {
            return rocksDb.windowSize();
        }

        @Override
        public boolean retainDuplicates() {
            return rocksDb.retainDuplicates();
        }

        @Override
        public long retentionPeriod() {
            return rocksDb.retentionPeriod();
        }
    }
}
