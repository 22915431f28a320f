package dev.proofline.reputation;

import dev.proofline.schemas.avro.Receipt;
import java.time.LocalDate;
import java.time.Month;
import java.time.OffsetDateTime;
import java.time.Year;
import java.time.format.DateTimeParseException;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * A receipt's event time: its {@code verified_at}, so decayed scores and daily windows count a
 * receipt when it was verified, wherever and whenever it is read (a replay, a late record).
 */
public final class VerifiedAt implements TimestampExtractor {
    private static final int RECEIPT_FORM_LENGTH = "2026-10-01T01:01:09.606993+00:00".length();
    private static final long SECONDS_PER_DAY = 86_400L;

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

    /**
     * The form every receipt is stamped with (UTC, microseconds), read without {@code java.time}'s
     * general parser, which cost a few per cent of a stream thread (every receipt's time is read
     * twice: as its event time and into its agent's history); -1 for anything else, which the
     * general parser then judges. Years 1970-9999 only, so -1 never is a real answer.
     */
    static long receiptFormMillis(String s) {
        long micros = receiptFormMicros(s);
        return micros < 0 ? -1 : micros / 1_000;
    }

    /**
     * Epoch microseconds of a time in the receipt form, or -1 for anything else. Every field has a
     * fixed width and is range-checked, so {@link #receiptForm} gives back exactly the text read.
     */
    static long receiptFormMicros(String s) {
        if (s.length() != RECEIPT_FORM_LENGTH
                || s.charAt(4) != '-'
                || s.charAt(7) != '-'
                || s.charAt(10) != 'T'
                || s.charAt(13) != ':'
                || s.charAt(16) != ':'
                || s.charAt(19) != '.'
                || !s.startsWith("+00:00", 26)) {
            return -1;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        int second = digits(s, 17, 2);
        int micros = digits(s, 20, 6);
        if (year < 1970
                || micros < 0
                || month < 1
                || month > 12
                || day < 1
                || day > Month.of(month).length(Year.isLeap(year))
                || hour < 0
                || hour > 23
                || minute < 0
                || minute > 59
                || second < 0
                || second > 59) {
            return -1;
        }
        long secondOfDay = hour * 3_600L + minute * 60L + second;
        return (LocalDate.of(year, month, day).toEpochDay() * SECONDS_PER_DAY + secondOfDay) * 1_000_000L + micros;
    }

    /** The receipt form of epoch microseconds that {@link #receiptFormMicros} read. */
    static String receiptForm(long epochMicros) {
        long seconds = Math.floorDiv(epochMicros, 1_000_000L);
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(seconds, SECONDS_PER_DAY));
        int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
        char[] text = "0000-00-00T00:00:00.000000+00:00".toCharArray();
        write(text, 0, 4, date.getYear());
        write(text, 5, 2, date.getMonthValue());
        write(text, 8, 2, date.getDayOfMonth());
        write(text, 11, 2, secondOfDay / 3_600);
        write(text, 14, 2, secondOfDay / 60 % 60);
        write(text, 17, 2, secondOfDay % 60);
        write(text, 20, 6, (int) Math.floorMod(epochMicros, 1_000_000L));
        return new String(text);
    }

    private static void write(char[] text, int from, int count, int value) {
        for (int i = from + count - 1; i >= from; i--) {
            text[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /** The decimal number in {@code count} ASCII digits from {@code from}, or -1. */
    private static int digits(String s, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
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
