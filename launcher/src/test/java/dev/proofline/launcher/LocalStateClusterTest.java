package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalStateClusterTest {
    @TempDir
    Path dataDir;

    private final AtomicInteger wipes = new AtomicInteger();

    @Test
    void aNewDataDirIsNamedAfterItsClusterAndNothingIsWiped() throws Exception {
        LocalStateCluster.claim(dataDir, "cluster-a", wipes::incrementAndGet);
        assertEquals(0, wipes.get());
        assertEquals("cluster-a\n", Files.readString(dataDir.resolve(LocalStateCluster.FILE)));
    }

    @Test
    void theSameClusterKeepsItsState() throws Exception {
        LocalStateCluster.claim(dataDir, "cluster-a", wipes::incrementAndGet);
        LocalStateCluster.claim(dataDir, "cluster-a", wipes::incrementAndGet);
        assertEquals(0, wipes.get());
    }

    @Test
    void anotherClusterWipesTheStateOnceAndTakesTheDataDir() throws Exception {
        LocalStateCluster.claim(dataDir, "cluster-a", wipes::incrementAndGet);
        LocalStateCluster.claim(dataDir, "cluster-b", wipes::incrementAndGet);
        assertEquals(1, wipes.get());
        assertEquals("cluster-b\n", Files.readString(dataDir.resolve(LocalStateCluster.FILE)));
        LocalStateCluster.claim(dataDir, "cluster-b", wipes::incrementAndGet);
        assertEquals(1, wipes.get());
    }

    @Test
    void aWipeThatFailsLeavesTheOldNameSoTheNextStartWipesAgain() throws Exception {
        LocalStateCluster.claim(dataDir, "cluster-a", wipes::incrementAndGet);
        try {
            LocalStateCluster.claim(dataDir, "cluster-b", () -> {
                throw new IllegalStateException("state directory in use");
            });
        } catch (IllegalStateException expected) {
            // as KafkaStreams.cleanUp() would fail
        }
        assertEquals(
                "cluster-a",
                Files.readString(dataDir.resolve(LocalStateCluster.FILE), StandardCharsets.US_ASCII)
                        .trim());
    }

    @Test
    void aBrokerThatNamesNoClusterWipesNothing() throws Exception {
        LocalStateCluster.claim(dataDir, "cluster-a", wipes::incrementAndGet);
        LocalStateCluster.claim(dataDir, null, wipes::incrementAndGet);
        LocalStateCluster.claim(dataDir, " ", wipes::incrementAndGet);
        assertEquals(0, wipes.get());
        assertEquals("cluster-a\n", Files.readString(dataDir.resolve(LocalStateCluster.FILE)));
    }
}
