package dev.proofline.reputation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DecayedCountsTest {
    private static final Duration HALF_LIFE = Duration.ofDays(30);
    private static final long DAY = Duration.ofDays(1).toMillis();
    private static final long NOW = Instant.parse("2026-11-30T12:00:00Z").toEpochMilli();

    private record Event(boolean pass, long at) {}

    private static DecayedCounts fold(List<Event> events) {
        DecayedCounts counts = DecayedCounts.NONE;
        for (Event e : events) {
            counts = counts.with(e.pass(), e.at(), HALF_LIFE);
        }
        return counts;
    }

    /** 200 passes spread over 60 to 90 days ago, then 20 failures in the last two days. */
    private static List<Event> recoveredThenFailing() {
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            events.add(new Event(true, NOW - 90 * DAY + i * (30 * DAY / 200)));
        }
        for (int i = 0; i < 20; i++) {
            events.add(new Event(false, NOW - 2 * DAY + i * (2 * DAY / 20)));
        }
        return events;
    }

    @Test
    void theSameReceiptsInAnyOrderGiveTheSameScore() {
        List<Event> events = recoveredThenFailing();
        DecayedCounts inOrder = fold(events).asOf(NOW, HALF_LIFE);
        Random random = new Random(7);
        for (int round = 0; round < 20; round++) {
            List<Event> shuffled = new ArrayList<>(events);
            Collections.shuffle(shuffled, random);
            DecayedCounts other = fold(shuffled).asOf(NOW, HALF_LIFE);
            assertEquals(inOrder.score(), other.score(), 1e-12);
            assertEquals(inOrder.passed(), other.passed(), 1e-12 * inOrder.passed());
            assertEquals(inOrder.failed(), other.failed(), 1e-12 * inOrder.failed());
        }
    }

    @Test
    void closedForms() {
        DecayedCounts one = DecayedCounts.NONE.with(true, NOW, HALF_LIFE);
        assertEquals(1.0, one.asOf(NOW, HALF_LIFE).passed(), 0);
        assertEquals(0.5, one.asOf(NOW + 30 * DAY, HALF_LIFE).passed(), 1e-15);
        assertEquals(0.25, one.asOf(NOW + 60 * DAY, HALF_LIFE).passed(), 1e-15);
        // A late receipt counts as decayed from its own time to the anchor.
        DecayedCounts late = one.with(false, NOW - 30 * DAY, HALF_LIFE);
        assertEquals(NOW, late.anchorMillis());
        assertEquals(0.5, late.failed(), 1e-15);
        assertEquals(1.5, late.effectiveN(), 1e-15);
        // Equal weights score as the lifetime figure does on the same counts.
        DecayedCounts same = DecayedCounts.NONE
                .with(true, NOW, HALF_LIFE)
                .with(true, NOW, HALF_LIFE)
                .with(false, NOW, HALF_LIFE);
        assertEquals(TrustScore.of(2, 1), same.score(), 1e-15);
        assertThrows(IllegalArgumentException.class, () -> one.asOf(NOW - 1, HALF_LIFE));
        assertEquals(0.0, DecayedCounts.NONE.score());
    }

    @Test
    void recentFailuresOutweighOldPasses() {
        DecayedCounts counts = fold(recoveredThenFailing());
        long passed = 200;
        long failed = 20;
        assertTrue(TrustScore.of(passed, failed) > 0.85, "the lifetime score hardly moves");
        double decayed = counts.asOf(NOW, HALF_LIFE).score();
        assertEquals(0.51, decayed, 0.02, "the decayed score falls to about 0.51");
    }
}
