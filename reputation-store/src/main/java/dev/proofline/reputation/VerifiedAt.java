package dev.proofline.reputation;

import dev.proofline.contract.ReceiptTimes;
import dev.proofline.schemas.avro.Receipt;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * A receipt's event time: its {@code verified_at}, so decayed scores and daily windows count a
 * receipt when it was verified, wherever and whenever it is read (a replay, a late record).
 */
public final class VerifiedAt implements TimestampExtractor {

    /** Epoch milliseconds of a receipt time ({@code 2026-10-01T01:01:09.606993+00:00}), if it is one. */
    public static OptionalLong millis(String verifiedAt) {
        if (verifiedAt == null) {
            return OptionalLong.empty();
        }
        long fast = receiptFormMillis(verifiedAt);
        if (fast >= 0) {
            return OptionalLong.of(fast);
        }
        try {
            return OptionalLong.of(OffsetDateTime.parse(verifiedAt).toInstant().toEpochMilli());
        } catch (DateTimeParseException | ArithmeticException e) {
            // The second: a time java.time can hold but epoch milliseconds cannot (year +300000000).
            return OptionalLong.empty();
        }
    }

    /** Epoch milliseconds of a time in the receipt form ({@link ReceiptTimes}), or -1 for anything else. */
    static long receiptFormMillis(String s) {
        long micros = ReceiptTimes.epochMicros(s);
        return micros == ReceiptTimes.NOT_IN_FORM ? -1 : micros / 1_000;
    }

    @Override
    public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
        // A value that is not a receipt Proofline wrote keeps its record time, if it has a usable one.
        long time = record.value() instanceof Receipt receipt
                ? millis(receipt.getVerifiedAt()).orElse(record.timestamp())
                : record.timestamp();
        if (time >= 0) {
            return time;
        }
        // Negative (a client may write -1): Streams would fail the thread on it, again and again.
        return partitionTime >= 0 ? partitionTime : System.currentTimeMillis();
    }
}
