package dev.proofline.topology;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * A record's own time, or, when it has none a stream can use (negative: a client may write -1, and
 * the broker takes it), its partition's time so far, or now. Kafka Streams' default fails the
 * stream thread on such a record, and its replacement reads the same record and fails again, so
 * one record from any client would stop a partition. Here it is verified like any other.
 *
 * <p>The default extractor of every Proofline topology ({@code default.timestamp.extractor}).
 */
public final class RecordTimeOrNow implements TimestampExtractor {
    @Override
    public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
        return usable(record.timestamp(), partitionTime);
    }

    /** {@code timestamp} if a stream can use it, else the partition's time, else now. */
    public static long usable(long timestamp, long partitionTime) {
        if (timestamp >= 0) {
            return timestamp;
        }
        return partitionTime >= 0 ? partitionTime : System.currentTimeMillis();
    }
}
