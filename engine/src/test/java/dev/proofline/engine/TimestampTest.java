package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proofline.contract.ReceiptTimes;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The hand-laid timestamp of signed answers against the formatter it replaces on the hot path. */
class TimestampTest {

    private static String formatted(Instant instant) {
        return ReceiptTimes.FORM.format(instant.truncatedTo(ChronoUnit.MICROS));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "1970-01-01T00:00:00Z",
                "1969-12-31T23:59:59.999999999Z",
                "2026-10-01T01:01:09.606993Z",
                "2024-02-29T23:59:59.999999Z",
                "2026-11-29T10:00:00.000000500Z",
                "0000-01-01T00:00:00Z",
                "9999-12-31T23:59:59.999999999Z",
                "-0001-12-31T23:59:59.5Z",
                "+10000-01-01T00:00:00Z",
                "1900-03-01T12:34:56.000001Z"
            })
    void matchesTheFormatterAtTheEdges(String at) {
        Instant instant = Instant.parse(at);
        assertEquals(formatted(instant), ReceiptAssembler.timestamp(instant));
    }

    @Test
    void matchesTheFormatterOnRandomInstants() {
        SplittableRandom random = new SplittableRandom(8785);
        long first = Instant.parse("-0002-01-01T00:00:00Z").getEpochSecond();
        long last = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        for (int i = 0; i < 100_000; i++) {
            Instant instant = Instant.ofEpochSecond(random.nextLong(first, last + 1), random.nextInt(1_000_000_000));
            assertEquals(formatted(instant), ReceiptAssembler.timestamp(instant), instant.toString());
        }
    }

    @Test
    void keepsTheDocumentedLayout() {
        assertEquals(
                "2026-10-01T01:01:09.606993+00:00",
                ReceiptAssembler.timestamp(Instant.parse("2026-10-01T01:01:09.606993Z")));
    }
}
