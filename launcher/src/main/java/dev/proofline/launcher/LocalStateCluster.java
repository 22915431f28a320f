package dev.proofline.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams' local state under a data dir is a copy of topics in one Kafka cluster, so the data dir
 * names that cluster, and state kept from another one is wiped before Streams starts.
 *
 * <p>A data dir kept across a new cluster (a broker formatted again, a data dir moved) otherwise
 * fails the whole pipeline on start, some of the time. Stream tasks notice that their changelogs
 * end before the offsets they checkpointed and restore from scratch, but the transparency log's
 * global store does not: its consumer starts at its checkpointed offset, past the new topic's
 * end, and Kafka Streams stops the client in {@code ERROR} ("inconsistent local state ... restart
 * KafkaStreams to recover"). Whether it fails depends on how far the old log had grown.
 *
 * <p>A data dir that names no cluster (the first start, or one kept from before this file) is
 * taken to belong to the cluster it meets.
 */
final class LocalStateCluster {
    private static final Logger LOG = LoggerFactory.getLogger(LocalStateCluster.class);
    static final String FILE = "streams.cluster-id";

    private LocalStateCluster() {}

    /**
     * Wipes the local state with {@code wipe} ({@code KafkaStreams::cleanUp}, before start) if the
     * data dir names a cluster other than {@code clusterId}, then names {@code clusterId}.
     */
    static void claim(Path dataDir, String clusterId, Runnable wipe) throws IOException {
        if (clusterId == null || clusterId.isBlank()) {
            return; // a broker that names no cluster: nothing to compare, so nothing is wiped
        }
        Path file = dataDir.resolve(FILE);
        String kept = Files.exists(file)
                ? Files.readString(file, StandardCharsets.US_ASCII).trim()
                : "";
        if (kept.equals(clusterId)) {
            return;
        }
        if (!kept.isEmpty()) {
            LOG.warn(
                    "the data dir's Streams state was kept from Kafka cluster {}; this is cluster {}: the local"
                            + " state is wiped and restored from this cluster",
                    kept,
                    clusterId);
            wipe.run();
        }
        // Named only once wiped: a crash in between wipes again at the next start, never keeps stale state.
        Files.createDirectories(dataDir);
        Path written = Files.createTempFile(dataDir, FILE, ".tmp");
        Files.writeString(written, clusterId + "\n", StandardCharsets.US_ASCII);
        Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
