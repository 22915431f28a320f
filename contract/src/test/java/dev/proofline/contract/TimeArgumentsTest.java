package dev.proofline.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.junit.jupiter.api.Test;

class TimeArgumentsTest {

    @Test
    void readsRfc3339WithAnyOffsetAndEpochMilliseconds() {
        assertEquals(Instant.parse("2026-11-30T12:00:00Z"), TimeArguments.parse("2026-11-30T12:00:00Z"));
        assertEquals(Instant.parse("2026-11-30T10:00:00Z"), TimeArguments.parse("2026-11-30T12:00:00+02:00"));
        assertEquals(Instant.ofEpochMilli(1_764_504_000_000L), TimeArguments.parse("1764504000000"));
        assertEquals(TimeArguments.EARLIEST, TimeArguments.parse("0000-01-01T00:00:00Z"));
        assertEquals(TimeArguments.LATEST, TimeArguments.parse("9999-12-31T23:59:59.999999999Z"));
        assertEquals(Instant.ofEpochMilli(253_402_300_799_999L), TimeArguments.parse("253402300799999"));
    }

    @Test
    void refusesTimesOutsideRfc3339sYearsThatJavaWouldStillRead() {
        // Each of these parses in java.time; the first two overflow epoch milliseconds.
        for (String far : new String[] {
            "-999999999-01-01T00:00:00Z",
            "+999999999-12-31T23:59:59Z",
            "+10000-01-01T00:00:00Z",
            "-0001-12-31T23:59:59Z",
            "0000-01-01T00:00:00+00:01",
            "253402300800000",
            "9223372036854775807"
        }) {
            assertThrows(DateTimeParseException.class, () -> TimeArguments.parse(far), far);
        }
    }

    @Test
    void refusesWhatIsNoTime() {
        for (String text : new String[] {"", "yesterday", "2026-11-30", "2026-11-30T12:00:00", "-5", "1e3"}) {
            assertThrows(RuntimeException.class, () -> TimeArguments.parse(text), text);
        }
        assertThrows(NumberFormatException.class, () -> TimeArguments.parse("99999999999999999999"));
    }
}
