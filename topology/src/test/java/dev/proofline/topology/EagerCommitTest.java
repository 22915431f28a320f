package dev.proofline.topology;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class EagerCommitTest {
    private final EagerCommit fifty = new EagerCommit(Duration.ofMillis(50));

    @Test
    void aRequestVerifiedSoonAfterItWasWrittenCommitsAtOnce() {
        assertTrue(fifty.due(1_000, 1_000));
        assertTrue(fifty.due(1_000, 1_050));
        // A producer's clock ahead of ours is not a backlog.
        assertTrue(fifty.due(2_000, 1_000));
    }

    @Test
    void aBacklogWaitsForTheCommitInterval() {
        assertFalse(fifty.due(1_000, 1_051));
        // Records written long ago, e.g. replayed or produced with old timestamps.
        assertFalse(fifty.due(0, 1_000_000));
    }

    @Test
    void zeroNeverAsks() {
        assertFalse(EagerCommit.NEVER.due(1_000, 1_000));
    }
}
