package dev.proofline.topology.tlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.tlog.LogAppender;
import dev.proofline.tlog.LogRecords;
import dev.proofline.tlog.MerkleHashes;
import dev.proofline.tlog.NoteKey;
import dev.proofline.tlog.SignedLogs;
import dev.proofline.tlog.TilePath;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

class SequencerTest {
    private static final NoteKey KEY = new NoteKey("example.test/tlog", new byte[32]);

    private static KeyValueStore<String, byte[]> store(MockProcessorContext<String, byte[]> context, String name) {
        KeyValueStore<String, byte[]> store = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(name), Serdes.String(), Serdes.ByteArray())
                .withLoggingDisabled()
                .build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        return store;
    }

    /**
     * A log that grew past its first tile before its first leaf was kept (its full tiles have left
     * the sequencer's store) finds the leaf in the published tile 0, so the key knows this log from
     * any other under its name.
     */
    @Test
    void aLogFromBeforeTheGuardIsKnownByItsPublishedFirstTile() {
        MockProcessorContext<String, byte[]> context = new MockProcessorContext<>();
        KeyValueStore<String, byte[]> own = store(context, Sequencer.STORE);
        KeyValueStore<String, byte[]> published = store(context, TransparencyLogTopology.STORE);
        LogAppender before = new LogAppender(LogAppender.Store.of(own::get, own::put, own::delete));
        for (int i = 0; i < 300; i++) {
            before.append(LogRecords.entry("{\"n\":" + i + "}"));
        }
        Map<String, byte[]> tiles = before.tilesToPublish();
        tiles.forEach(published::put);
        before.published(tiles);
        own.delete("first-leaf"); // as a sequencer before this version left it
        assertTrue(new LogAppender(LogAppender.Store.of(own::get, own::put, own::delete))
                .firstLeaf()
                .isEmpty());

        SignedLogs signedLogs = SignedLogs.inMemory();
        Processor<String, byte[], String, byte[]> sequencer =
                new Sequencer(KEY, signedLogs, TransparencyLogTopology.STORE, Duration.ofSeconds(1), 1024).get();
        sequencer.init(context);
        sequencer.process(new org.apache.kafka.streams.processor.api.Record<>("", LogRecords.entry("{\"n\":300}"), 0L));
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(0L);
        assertTrue(context.forwarded().stream()
                .anyMatch(f -> LogRecords.CHECKPOINT.equals(f.record().key())));

        byte[] firstLeaf = MerkleHashes.leaf(LogRecords.entry("{\"n\":0}"));
        // Asked first about another log: refused only if the sequencer recorded this one.
        assertTrue(signedLogs.admit(KEY, MerkleHashes.leaf(new byte[] {1})).isPresent(), "another is refused");
        assertEquals(Optional.empty(), signedLogs.admit(KEY, firstLeaf), "recorded as this log");
        assertEquals(
                TilePath.WIDTH * MerkleHashes.SIZE,
                published.get(new TilePath(0, 0, TilePath.WIDTH).storeKey()).length);
    }
}
