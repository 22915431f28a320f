package dev.proofline.reputation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TrustScoreTest {
    @Test
    void noHistoryScoresZero() {
        assertEquals(0.0, TrustScore.of(0, 0));
    }

    @Test
    void knownWilsonLowerBounds() {
        assertEquals(0.206549, TrustScore.rounded(TrustScore.of(1, 0)), 1e-6);
        assertEquals(0.722467, TrustScore.rounded(TrustScore.of(10, 0)), 1e-6);
        assertEquals(0.963007, TrustScore.rounded(TrustScore.of(100, 0)), 1e-6);
        assertEquals(0.5, TrustScore.of(1000, 1000), 0.03);
    }

    @Test
    void aLongRecordOfPassesBeatsAShortOneAndFailuresCost() {
        assertTrue(TrustScore.of(100, 0) > TrustScore.of(10, 0));
        assertTrue(TrustScore.of(10, 0) > TrustScore.of(9, 1));
        assertTrue(TrustScore.of(90, 10) > TrustScore.of(9, 1), "same rate, more evidence");
    }
}
