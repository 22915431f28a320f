package dev.proofline.topology.tlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.InMemorySchemaRegistry;
import dev.proofline.schemas.TestReceipts;
import dev.proofline.schemas.avro.Receipt;
import dev.proofline.tlog.Checkpoint;
import dev.proofline.tlog.LogRecords;
import dev.proofline.tlog.MerkleHashes;
import dev.proofline.tlog.NoteKey;
import dev.proofline.tlog.NoteVerifier;
import dev.proofline.tlog.SignedLogs;
import dev.proofline.tlog.TilePath;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

class TransparencyLogTopologyTest {
    private static final NoteKey KEY = new NoteKey("example.test/proofline", new byte[32]);

    private final AvroSerde<Receipt> serde = new AvroSerde<>(new InMemorySchemaRegistry(), Receipt.getClassSchema());

    private TopologyTestDriver driver() {
        return driver(SignedLogs.inMemory());
    }

    /** A node whose log starts from an empty store, its key's earlier logs in {@code signedLogs}. */
    private TopologyTestDriver driver(SignedLogs signedLogs) {
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, Receipt> receipts = builder.stream("receipts", Consumed.with(Serdes.String(), serde));
        TransparencyLogTopology.addTo(builder, receipts, "app-tlog", KEY, signedLogs, Duration.ofSeconds(1), 1024);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "tlog-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return new TopologyTestDriver(builder.build(), props);
    }

    /**
     * Each instance indexes the entries from the published bundles, which grow under one key from
     * checkpoint to checkpoint: every entry keeps the index of its place in the log, across bundles
     * and partial bundles; test receipts never enter.
     */
    @Test
    void everyEntryIsIndexedAtItsPlaceFromTheBundlesAlone() {
        try (TopologyTestDriver driver = driver()) {
            TestInputTopic<String, Receipt> in = driver.createInputTopic(
                    "receipts",
                    new StringSerializer(),
                    (topic, r) -> serde.serializer().serialize(topic, r));
            List<byte[]> entries = new ArrayList<>();
            for (int i = 0; i < 700; i++) {
                String agent = i % 7 == 3 ? "test-agent" : "agent-" + (i % 5);
                in.pipeInput(agent, TestReceipts.numbered(i, agent));
                if (!agent.startsWith("test-")) {
                    entries.add(LogRecords.entry(TestReceipts.numbered(i, agent).getSignedJson()));
                }
                if (i % 150 == 149) {
                    driver.advanceWallClockTime(Duration.ofSeconds(1)); // a checkpoint mid-bundle
                }
            }
            driver.advanceWallClockTime(Duration.ofMillis(100)); // the last batch
            driver.advanceWallClockTime(Duration.ofSeconds(1)); // its checkpoint

            KeyValueStore<String, byte[]> log = driver.getKeyValueStore(TransparencyLogTopology.STORE);
            for (int index = 0; index < entries.size(); index++) {
                byte[] stored = log.get(LogRecords.index(entries.get(index)));
                assertEquals(index, ByteBuffer.wrap(stored).getLong(), "entry " + index);
            }
            assertNull(log.get(LogRecords.index(
                    LogRecords.entry(TestReceipts.numbered(3, "test-agent").getSignedJson()))));

            String note = new String(log.get(LogRecords.CHECKPOINT), StandardCharsets.UTF_8);
            Checkpoint checkpoint = Checkpoint.open(note, NoteVerifier.parse(KEY.verifierKey()));
            assertEquals(entries.size(), checkpoint.size());
            assertArrayEquals(rootOf(entries), checkpoint.root());
            assertEquals(
                    entries.size() % TilePath.WIDTH,
                    count(log.get(new TilePath(TilePath.ENTRIES, entries.size() / TilePath.WIDTH, 1).storeKey())));
        }
    }

    /** A full batch is handed on at once, without waiting for the wall clock. */
    @Test
    void aFullBatchIsHandedOnWithoutWaiting() {
        try (TopologyTestDriver driver = driver()) {
            TestInputTopic<String, Receipt> in = driver.createInputTopic(
                    "receipts",
                    new StringSerializer(),
                    (topic, r) -> serde.serializer().serialize(topic, r));
            for (int i = 0; i < EntryBatcher.MAX_ENTRIES + 10; i++) {
                in.pipeInput("agent-1", TestReceipts.numbered(i, "agent-1"));
            }
            KeyValueStore<String, byte[]> log = driver.getKeyValueStore(TransparencyLogTopology.STORE);
            Checkpoint checkpoint = Checkpoint.open(
                    new String(log.get(LogRecords.CHECKPOINT), StandardCharsets.UTF_8),
                    NoteVerifier.parse(KEY.verifierKey()));
            assertEquals(EntryBatcher.MAX_ENTRIES, checkpoint.size(), "one full batch, checkpointed at every 1,024");
            driver.advanceWallClockTime(Duration.ofMillis(100));
            driver.advanceWallClockTime(Duration.ofSeconds(1));
            checkpoint = Checkpoint.open(
                    new String(log.get(LogRecords.CHECKPOINT), StandardCharsets.UTF_8),
                    NoteVerifier.parse(KEY.verifierKey()));
            assertEquals(EntryBatcher.MAX_ENTRIES + 10, checkpoint.size());
        }
    }

    /**
     * A log whose store starts over (its Kafka state reset) is a new log under the key and origin of
     * the old one: it gets no checkpoint, not even of the empty tree, since signing one would fork
     * the log its verifiers know. The same log restored and replayed (a crash) is checkpointed as
     * before.
     */
    @Test
    void aLogThatStartsOverUnderTheSameKeyIsNotSigned() {
        SignedLogs signedLogs = SignedLogs.inMemory();
        byte[] first = checkpointAfter(signedLogs, 0);
        assertNotNull(first, "the first log is checkpointed");
        assertNotNull(checkpointAfter(signedLogs, 0), "the same entries again: the same log, replayed");
        assertNull(checkpointAfter(signedLogs, 1000), "other receipts first: another log");
        try (TopologyTestDriver driver = driver(signedLogs)) {
            driver.advanceWallClockTime(Duration.ofSeconds(2));
            KeyValueStore<String, byte[]> log = driver.getKeyValueStore(TransparencyLogTopology.STORE);
            assertNull(log.get(LogRecords.CHECKPOINT), "not even the empty tree");
        }
        NoteKey otherOrigin = new NoteKey("elsewhere.test/tlog", new byte[32]);
        assertEquals(Optional.empty(), signedLogs.admit(otherOrigin, new byte[32]), "a log of another name");
    }

    /** The checkpoint a fresh store signs after 300 receipts numbered from {@code from}, or null. */
    private byte[] checkpointAfter(SignedLogs signedLogs, int from) {
        try (TopologyTestDriver driver = driver(signedLogs)) {
            TestInputTopic<String, Receipt> in = driver.createInputTopic(
                    "receipts",
                    new StringSerializer(),
                    (topic, r) -> serde.serializer().serialize(topic, r));
            for (int i = from; i < from + 300; i++) {
                in.pipeInput("agent-1", TestReceipts.numbered(i, "agent-1"));
            }
            driver.advanceWallClockTime(Duration.ofMillis(100));
            driver.advanceWallClockTime(Duration.ofSeconds(1));
            KeyValueStore<String, byte[]> log = driver.getKeyValueStore(TransparencyLogTopology.STORE);
            return log.get(LogRecords.CHECKPOINT);
        }
    }

    /**
     * The sequencer reads a batch as digests one after another, so a lone digest (what the entries
     * topic held before batching) is a batch of one; a record that is not whole digests is skipped,
     * and what follows it is still appended.
     */
    @Test
    void theSequencerAppendsBatchesAndSkipsWhatIsNotOne() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("entries", Consumed.with(Serdes.String(), Serdes.ByteArray()))
                .process(new Sequencer(KEY, SignedLogs.inMemory(), null, Duration.ofSeconds(1), 1024))
                .to("log", org.apache.kafka.streams.kstream.Produced.with(Serdes.String(), Serdes.ByteArray()));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "sequencer-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            TestInputTopic<String, byte[]> in =
                    driver.createInputTopic("entries", new StringSerializer(), new ByteArraySerializer());
            List<byte[]> entries = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                entries.add(LogRecords.entry("{\"n\":" + i + "}"));
            }
            in.pipeInput("", entries.get(0));
            in.pipeInput("", new byte[33]);
            in.pipeInput("", null);
            byte[] batch = new byte[4 * MerkleHashes.SIZE];
            for (int i = 1; i < 5; i++) {
                System.arraycopy(entries.get(i), 0, batch, (i - 1) * MerkleHashes.SIZE, MerkleHashes.SIZE);
            }
            in.pipeInput("", batch);
            driver.advanceWallClockTime(Duration.ofSeconds(1));

            byte[] note = driver.createOutputTopic("log", new StringDeserializer(), new ByteArrayDeserializer())
                    .readKeyValuesToMap()
                    .get(LogRecords.CHECKPOINT);
            Checkpoint checkpoint =
                    Checkpoint.open(new String(note, StandardCharsets.UTF_8), NoteVerifier.parse(KEY.verifierKey()));
            assertEquals(5, checkpoint.size());
            assertArrayEquals(rootOf(entries), checkpoint.root());
        }
    }

    /** RFC 6962's recursive definition of the root, independent of the tiles. */
    private static byte[] rootOf(List<byte[]> entries) {
        if (entries.size() == 1) {
            return MerkleHashes.leaf(entries.get(0));
        }
        int split = Integer.highestOneBit(entries.size() - 1);
        return MerkleHashes.node(rootOf(entries.subList(0, split)), rootOf(entries.subList(split, entries.size())));
    }

    private static int count(byte[] bundle) {
        int n = 0;
        for (int at = 0; at < bundle.length; n++) {
            at += 2 + (((bundle[at] & 0xFF) << 8) | (bundle[at + 1] & 0xFF));
        }
        return n;
    }
}
