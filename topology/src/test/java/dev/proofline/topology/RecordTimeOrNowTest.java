package dev.proofline.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RecordTimeOrNowTest {
    @Test
    void aRecordsOwnTimeElseThePartitionsElseNow() {
        assertEquals(0, RecordTimeOrNow.usable(0, 5));
        assertEquals(1_700_000_000_000L, RecordTimeOrNow.usable(1_700_000_000_000L, 5));
        assertEquals(5, RecordTimeOrNow.usable(-1, 5));
        assertEquals(5, RecordTimeOrNow.usable(Long.MIN_VALUE, 5));
        long before = System.currentTimeMillis();
        long now = RecordTimeOrNow.usable(-1, -1);
        assertTrue(now >= before && now <= System.currentTimeMillis(), "now: " + now);
    }
}
