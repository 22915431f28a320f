package dev.proofline.reputation;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** Where a receipt is in the receipts topic. */
public record ReceiptPosition(int partition, long offset) {
    /** Twelve bytes: the partition, then the offset. */
    public static final class ReceiptPositionSerde implements Serde<ReceiptPosition> {
        @Override
        public Serializer<ReceiptPosition> serializer() {
            return (topic, p) -> p == null
                    ? null
                    : ByteBuffer.allocate(12)
                            .putInt(p.partition())
                            .putLong(p.offset())
                            .array();
        }

        @Override
        public Deserializer<ReceiptPosition> deserializer() {
            return (topic, bytes) -> {
                if (bytes == null) {
                    return null;
                }
                if (bytes.length != 12) {
                    throw new SerializationException("a receipt position is 12 bytes, not " + bytes.length);
                }
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                return new ReceiptPosition(buffer.getInt(), buffer.getLong());
            };
        }
    }
}
