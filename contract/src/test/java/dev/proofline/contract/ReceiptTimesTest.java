package dev.proofline.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The receipt time form, written and read by hand, against {@code java.time}'s pattern. */
class ReceiptTimesTest {

    @Test
    void writesWhatJavaTimesPatternWrites() {
        SplittableRandom random = new SplittableRandom(8785);
        long first = Instant.parse("0001-01-01T00:00:00Z").getEpochSecond();
        long last = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        for (int i = 0; i < 100_000; i++) {
            Instant at =
                    Instant.ofEpochSecond(first + random.nextLong(last - first + 1), random.nextInt(1_000_000_000));
            assertEquals(ReceiptTimes.FORM.format(at.truncatedTo(ChronoUnit.MICROS)), ReceiptTimes.format(at));
        }
        Instant beyond = Instant.parse("+10000-01-01T00:00:00Z");
        assertEquals(ReceiptTimes.FORM.format(beyond), ReceiptTimes.format(beyond), "past 9999: java.time prints it");
        // RFC 3339's year 0000 (an as_of may name it) is 0000, not the era's year 1 of java.time's yyyy.
        Instant yearZero = Instant.parse("0000-06-01T00:00:00Z");
        assertEquals("0000-06-01T00:00:00.000000+00:00", ReceiptTimes.format(yearZero));
        assertEquals(ReceiptTimes.FORM.format(yearZero), ReceiptTimes.format(yearZero));
    }

    /** A time read as microseconds (what the leaderboard keeps) prints back to the very text read. */
    @Test
    void aTimeReadAsMicrosecondsPrintsBackExactly() {
        SplittableRandom random = new SplittableRandom(1035);
        long first = Instant.parse("1970-01-01T00:00:00Z").getEpochSecond();
        long last = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        for (int i = 0; i < 100_000; i++) {
            Instant at = Instant.ofEpochSecond(
                    first + random.nextLong(last - first + 1), random.nextInt(1_000_000) * 1_000L);
            String text = ReceiptTimes.format(at);
            long micros = ReceiptTimes.epochMicros(text);
            assertEquals(at.getEpochSecond() * 1_000_000L + at.getNano() / 1_000, micros, text);
            assertEquals(text, ReceiptTimes.format(micros));
        }
        for (String edge : List.of(
                "1970-01-01T00:00:00.000000+00:00",
                "2024-02-29T23:59:59.999999+00:00",
                "9999-12-31T23:59:59.999999+00:00")) {
            assertEquals(edge, ReceiptTimes.format(ReceiptTimes.epochMicros(edge)));
        }
    }

    @Test
    void anyOtherTextIsNotInTheForm() {
        for (String text : List.of(
                "2023-02-29T00:00:00.000000+00:00",
                "2026-04-31T00:00:00.000000+00:00",
                "2026-13-01T00:00:00.000000+00:00",
                "2026-10-01T24:00:00.000000+00:00",
                "2026-10-01T23:59:60.000000+00:00",
                "2026-10-01T01:01:09.606993+01:00",
                "2026-10-01T01:01:09.606993-00:00",
                "2026-10-01T01:01:09.606993Z",
                "2026-10-01T01:01:09.606993123+00:00",
                "1969-12-31T23:59:59.999999+00:00",
                "2026-1a-01T01:01:09.606993+00:00",
                "2026-10-01 01:01:09.606993+00:00",
                "",
                "not a time")) {
            assertEquals(ReceiptTimes.NOT_IN_FORM, ReceiptTimes.epochMicros(text), text);
        }
    }
}
