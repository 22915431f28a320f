package dev.proofline.reputation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The receipt form's own reader agrees with {@code java.time}: on 100,000 random receipt times and on a list of other forms, valid and not. */
class VerifiedAtTest {
    private static final DateTimeFormatter RECEIPT_FORM =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx");

    @Test
    void readsReceiptTimesAsJavaTimeDoes() {
        SplittableRandom random = new SplittableRandom(8785);
        long last = Instant.parse("9999-12-31T23:59:59.999999Z").getEpochSecond();
        for (int i = 0; i < 100_000; i++) {
            Instant at = Instant.ofEpochSecond(random.nextLong(last + 1), random.nextInt(1_000_000) * 1_000L);
            String text = RECEIPT_FORM.format(at.atOffset(ZoneOffset.UTC));
            assertEquals(at.toEpochMilli(), VerifiedAt.receiptFormMillis(text), text);
            assertEquals(reference(text), VerifiedAt.millis(text), text);
        }
    }

    @Test
    void leavesEverythingElseToJavaTime() {
        List<String> others = List.of(
                "2024-02-29T00:00:00.000000+00:00", // a leap day: the fast path's
                "2023-02-29T00:00:00.000000+00:00", // no such day
                "2026-04-31T00:00:00.000000+00:00",
                "2026-13-01T00:00:00.000000+00:00",
                "2026-00-01T00:00:00.000000+00:00",
                "2026-10-00T00:00:00.000000+00:00",
                "2026-10-01T24:00:00.000000+00:00",
                "2026-10-01T23:60:00.000000+00:00",
                "2026-10-01T23:59:60.000000+00:00",
                "2026-10-01T01:01:09.606993+01:00", // another offset
                "2026-10-01T01:01:09.606993-00:00",
                "2026-10-01T01:01:09.606993Z",
                "2026-10-01T01:01:09+00:00",
                "2026-10-01T01:01:09.606993123+00:00",
                "1969-12-31T23:59:59.999999+00:00", // before 1970
                "0000-01-01T00:00:00.000000+00:00",
                "2026-1a-01T01:01:09.606993+00:00",
                "2026-10-01 01:01:09.606993+00:00",
                "２０２６-10-01T01:01:09.606993+00:00",
                "",
                "not a time");
        for (String text : others) {
            assertEquals(reference(text), VerifiedAt.millis(text), text);
        }
        assertEquals(OptionalLong.empty(), VerifiedAt.millis(null));
    }

    @Test
    void aTimeBeyondEpochMillisecondsIsNoTime() {
        // java.time holds these; epoch milliseconds overflow (a forged receipt stopped the thread on it).
        for (String text : List.of("+300000000-01-01T00:00:00+00:00", "-300000000-01-01T00:00:00+00:00")) {
            assertEquals(OptionalLong.empty(), VerifiedAt.millis(text), text);
        }
    }

    private static OptionalLong reference(String text) {
        try {
            return OptionalLong.of(OffsetDateTime.parse(text).toInstant().toEpochMilli());
        } catch (DateTimeParseException e) {
            return OptionalLong.empty();
        }
    }
}
