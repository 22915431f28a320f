package dev.proofline.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReplayRangeTest {
    @Test
    void timesAreRfc3339OrEpochMillisecondsAndSelectHalfOpen() {
        ReplayRange range = ReplayRange.parse("2026-11-30T10:00:00+01:00", "1796032800000");
        Instant from = Instant.parse("2026-11-30T09:00:00Z");
        assertEquals(new ReplayRange.FromTime(from), range.start());
        assertEquals(Optional.of(Instant.ofEpochMilli(1796032800000L)), range.to());
        assertFalse(range.includes(from.toEpochMilli() - 1));
        assertTrue(range.includes(from.toEpochMilli()));
        assertTrue(range.includes(1796032800000L - 1));
        assertFalse(range.includes(1796032800000L));
    }

    @Test
    void offsetsNameTheirPartitionsAndEndIsOpen() {
        ReplayRange range = ReplayRange.parse("0:15, 2:7", "end");
        assertEquals(new ReplayRange.FromOffsets(Map.of(0, 15L, 2, 7L)), range.start());
        assertTrue(range.to().isEmpty());
        assertTrue(range.includes(0), "an offset start selects by position, not by time");
    }

    @Test
    void nonsenseIsRefusedWithTheOptionNamed() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplayRange.parse("yesterday", "end"))
                .getMessage()
                .startsWith("--from 'yesterday' is not a time"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplayRange.parse("0:1:2", "end"))
                .getMessage()
                .contains("PARTITION:OFFSET"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplayRange.parse("0:1,0:2", "end"))
                .getMessage()
                .contains("twice"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplayRange.parse("2000", "1000"))
                .getMessage()
                .contains("after"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplayRange.parse("0", "soon"))
                .getMessage()
                .startsWith("--to 'soon'"));
    }
}
