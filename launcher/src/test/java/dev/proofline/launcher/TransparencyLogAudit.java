package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.tlog.Checkpoint;
import dev.proofline.tlog.LogRecords;
import dev.proofline.tlog.MerkleProofs;
import dev.proofline.tlog.NoteVerifier;
import dev.proofline.tlog.TileHashes;
import dev.proofline.tlog.TilePath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Audits the published transparency log straight from its topic, as a monitor that kept every
 * record would: every checkpoint ever committed is signed, there is one root per size, each is
 * consistent with the latest, and the entries are exactly the given ones, each once.
 */
final class TransparencyLogAudit {
    private TransparencyLogAudit() {}

    /**
     * @param expectedEntries hex SHA-256 of every receipt that must be in the log, each once
     * @return how many checkpoints were checked
     */
    static int audit(String bootstrap, String topic, NoteVerifier verifier, List<String> expectedEntries) {
        List<ConsumerRecord<String, byte[]>> records =
                PipelineHarness.readCommitted(bootstrap, topic, Integer.MAX_VALUE, Duration.ofSeconds(3));
        Map<String, byte[]> latest = new HashMap<>();
        Map<Long, String> rootBySize = new TreeMap<>();
        List<Checkpoint> checkpoints = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            latest.put(record.key(), record.value());
            if (record.key().startsWith(LogRecords.CHECKPOINT + "/")) {
                Checkpoint checkpoint = Checkpoint.open(new String(record.value(), StandardCharsets.UTF_8), verifier);
                String root = HexFormat.of().formatHex(checkpoint.root());
                String earlier = rootBySize.putIfAbsent(checkpoint.size(), root);
                assertTrue(earlier == null || earlier.equals(root), "two roots for size " + checkpoint.size());
                checkpoints.add(checkpoint);
            }
        }
        Checkpoint last =
                Checkpoint.open(new String(latest.get(LogRecords.CHECKPOINT), StandardCharsets.UTF_8), verifier);
        TileHashes hashes = new TileHashes((level, n) -> latest.get(new TilePath(level, n, TilePath.WIDTH).storeKey()));
        assertEquals(
                HexFormat.of().formatHex(last.root()),
                HexFormat.of().formatHex(MerkleProofs.root(last.size(), hashes)));
        for (Checkpoint c : checkpoints) {
            assertTrue(
                    MerkleProofs.verifyConsistency(
                            c.size(),
                            last.size(),
                            c.root(),
                            last.root(),
                            MerkleProofs.consistency(c.size(), last.size(), hashes)),
                    "checkpoint " + c.size() + " is not consistent with " + last.size());
        }
        Map<String, Integer> logged = new TreeMap<>();
        for (long n = 0; n * TilePath.WIDTH < last.size(); n++) {
            byte[] bundle = latest.get(new TilePath(TilePath.ENTRIES, n, TilePath.WIDTH).storeKey());
            for (int at = 0; at < bundle.length; ) {
                int length = ((bundle[at] & 0xFF) << 8) | (bundle[at + 1] & 0xFF);
                byte[] entry = java.util.Arrays.copyOfRange(bundle, at + 2, at + 2 + length);
                logged.merge(HexFormat.of().formatHex(entry), 1, Integer::sum);
                at += 2 + length;
            }
        }
        Map<String, Integer> expected = new TreeMap<>();
        expectedEntries.forEach(e -> expected.merge(e, 1, Integer::sum));
        assertEquals(expected, logged, "the log holds every receipt exactly once, and nothing else");
        assertEquals(expectedEntries.size(), last.size());
        return checkpoints.size();
    }
}
