package dev.proofline.reputation;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** An agent's counted receipts in one UTC day window of the {@code agent-daily} store. */
public record DailyCounts(long passed, long failed) {
    public static final DailyCounts ZERO = new DailyCounts(0, 0);

    public DailyCounts with(boolean pass) {
        return new DailyCounts(passed + (pass ? 1 : 0), failed + (pass ? 0 : 1));
    }

    /** Sixteen bytes: passed, then failed. */
    public static final class DailyCountsSerde implements Serde<DailyCounts> {
        @Override
        public Serializer<DailyCounts> serializer() {
            return (topic, counts) -> counts == null
                    ? null
                    : ByteBuffer.allocate(16)
                            .putLong(counts.passed())
                            .putLong(counts.failed())
                            .array();
        }

        @Override
        public Deserializer<DailyCounts> deserializer() {
            return (topic, bytes) -> {
                if (bytes == null) {
                    return null;
                }
                if (bytes.length != 16) {
                    throw new SerializationException("a daily-counts record has 16 bytes, not " + bytes.length);
                }
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                return new DailyCounts(buffer.getLong(), buffer.getLong());
            };
        }
    }
}
