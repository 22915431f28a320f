package dev.proofline.topology;

import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * How long each stream thread's Kafka transaction has been open. Streams' producers report to it
 * (they are wrapped by {@link #clientSupplier}): a transaction begins with its first write and ends
 * with its commit or abort, all on the stream thread that owns the producer, so the answer is the
 * asking thread's own transaction and needs no lock.
 */
public final class OpenTransactions {
    private final ThreadLocal<long[]> beganAt = ThreadLocal.withInitial(() -> new long[] {NONE});
    private final LongSupplier nanoTime;

    private static final long NONE = Long.MIN_VALUE;

    public OpenTransactions() {
        this(System::nanoTime);
    }

    OpenTransactions(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** How long the calling thread's transaction has been open, in nanoseconds; 0 when none is. */
    long openNanos() {
        long began = beganAt.get()[0];
        return began == NONE ? 0 : nanoTime.getAsLong() - began;
    }

    /** This clock's time, in nanoseconds. */
    long nanoTime() {
        return nanoTime.getAsLong();
    }

    void began() {
        beganAt.get()[0] = nanoTime.getAsLong();
    }

    void ended() {
        beganAt.get()[0] = NONE;
    }

    /** Streams' own clients, {@code defaults}, with every producer reporting its transactions here. */
    public KafkaClientSupplier clientSupplier(KafkaClientSupplier defaults) {
        return new KafkaClientSupplier() {
            @Override
            public Admin getAdmin(Map<String, Object> config) {
                return defaults.getAdmin(config);
            }

            @Override
            public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
                return new TransactionReportingProducer(defaults.getProducer(config), OpenTransactions.this);
            }

            @Override
            public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
                return defaults.getConsumer(config);
            }

            @Override
            public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
                return defaults.getRestoreConsumer(config);
            }

            @Override
            public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
                return defaults.getGlobalConsumer(config);
            }
        };
    }
}
