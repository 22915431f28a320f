package dev.proofline.reputation;

import static dev.proofline.reputation.TestReceipts.receipt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.contract.Topics;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.InMemorySchemaRegistry;
import dev.proofline.schemas.avro.Receipt;
import dev.proofline.schemas.avro.ScoreUpdate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

class ReputationTopologyTest {
    private final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    private final AvroSerde<Receipt> receipts = new AvroSerde<>(registry, Receipt.getClassSchema());
    private final AvroSerde<ScoreUpdate> scores = new AvroSerde<>(registry, ScoreUpdate.getClassSchema());

    private TopologyTestDriver driver(String applicationId) {
        StreamsBuilder builder = new StreamsBuilder();
        ReputationTopology.addTo(
                builder,
                Topics.defaults(),
                receipts,
                scores,
                java.time.Duration.ofDays(7),
                java.time.Duration.ofDays(30),
                new AgentRankings());
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return new TopologyTestDriver(builder.build(), props);
    }

    /** A stream of receipts as the pipeline keys them: agent id, or task id when there is none. */
    private static List<Receipt> history() {
        List<Receipt> list = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            list.add(receipt(i, "seller-" + (i % 2), i % 5 == 0 ? "fail" : "pass"));
        }
        list.add(receipt(40, "test-seller", "pass"));
        list.add(receipt(41, null, "pass"));
        return list;
    }

    private Map<String, AgentHistory> fold(TopologyTestDriver driver) {
        TestInputTopic<String, Receipt> in =
                driver.createInputTopic("receipts", new StringSerializer(), new ReceiptSerializer());
        for (Receipt r : history()) {
            in.pipeInput(r.getAgentId() != null ? r.getAgentId() : r.getTaskId(), r);
        }
        KeyValueStore<String, AgentHistory> store = driver.getKeyValueStore(ReputationTopology.STORE);
        Map<String, AgentHistory> all = new java.util.TreeMap<>();
        store.all().forEachRemaining(kv -> all.put(kv.key, kv.value));
        return all;
    }

    /** TestInputTopic needs a plain serializer. */
    private final class ReceiptSerializer implements org.apache.kafka.common.serialization.Serializer<Receipt> {
        @Override
        public byte[] serialize(String topic, Receipt data) {
            return receipts.serializer().serialize(topic, data);
        }
    }

    @Test
    void receiptsFoldIntoPerAgentHistoriesAndTestAndNullAgentsNeverCount() {
        try (TopologyTestDriver driver = driver("rep-a")) {
            Map<String, AgentHistory> all = fold(driver);
            assertEquals(List.of("seller-0", "seller-1"), List.copyOf(all.keySet()), "no test- agent, no null agent");
            AgentHistory s0 = all.get("seller-0");
            assertEquals(15, s0.total());
            assertEquals(3, s0.failed()); // i = 0, 10, 20
            assertEquals("2026-11-29T10:00:00.000000+00:00", s0.firstVerifiedAt());
            assertEquals("2026-11-29T10:00:28.000000+00:00", s0.lastVerifiedAt());
            assertEquals("id-28", s0.recent().get(0).verificationId(), "newest first");
            assertEquals(15, s0.recent().size());
            // seller-0's receipts are inputs 0, 2, ..., 28 of one partition: id-28 is offset 28
            assertEquals(
                    new AgentHistory.RecentReceipt("id-28", "pass", s0.lastVerifiedAt(), 0, 28),
                    s0.recent().get(0));
            assertEquals(15, s0.timeline().size(), "one point per second");

            TestOutputTopic<String, ScoreUpdate> updates = driver.createOutputTopic(
                    Topics.DEFAULT_SCORES,
                    new StringDeserializer(),
                    (topic, bytes) -> scores.deserializer().deserialize(topic, bytes));
            List<KeyValue<String, ScoreUpdate>> published = updates.readKeyValuesToList();
            assertEquals(30, published.size(), "one score update per counted receipt");
            ScoreUpdate last = published.get(published.size() - 1).value;
            assertEquals(TrustScore.rounded(TrustScore.of(last.getPassed(), last.getFailed())), last.getTrustScore());
            assertEquals(TrustScore.METHOD, last.getScoreMethod());
        }
    }

    @Test
    void receiptsProoflineCouldNotHaveWrittenAreSkippedAndTheRestCount() {
        String huge = "x".repeat(70_000); // more than an agent history's binary strings hold
        List<Receipt> forged = List.of(
                receipt(1, huge, "pass"),
                receipt(2, "seller", "pass", "+300000000-01-01T00:00:00+00:00"),
                receipt(21, "seller", "pass", "9999-12-31T23:59:59.000000+00:00"), // would move windows' time
                receipt(22, "seller", "pass", "yesterday"),
                receipt(3, "seller", "pass", huge),
                receipt(4, "seller", huge),
                Receipt.newBuilder(receipt(5, "seller", "pass"))
                        .setVerificationId(huge)
                        .build(),
                receipt(6, "s".repeat(201), "pass"));
        try (TopologyTestDriver driver = driver("rep-forged")) {
            TestInputTopic<String, Receipt> in =
                    driver.createInputTopic("receipts", new StringSerializer(), new ReceiptSerializer());
            for (Receipt receipt : forged) {
                in.pipeInput("seller", receipt);
            }
            in.pipeInput("seller", receipt(7, "seller", "pass"));
            // An id today's rules refuse, as Proofline wrote before them: it still counts.
            in.pipeInput("seller", receipt(8, "seller ", "pass"));
            AgentHistory seller = driver.<String, AgentHistory>getKeyValueStore(ReputationTopology.STORE)
                    .get("seller");
            assertEquals(
                    List.of("id-8", "id-7"),
                    seller.recent().stream()
                            .map(AgentHistory.RecentReceipt::verificationId)
                            .toList());
            List<Object> agents = new ArrayList<>();
            driver.getKeyValueStore(ReputationTopology.STORE).all().forEachRemaining(kv -> agents.add(kv.key));
            assertEquals(List.of("seller"), agents);
        }
        // The transparency log is fed through the same test: it logs none of them either.
        for (Receipt receipt : forged) {
            assertFalse(ReputationTopology.couldBeProoflines(receipt), receipt.getVerificationId());
        }
        assertFalse(ReputationTopology.couldBeProoflines(null));
        assertTrue(ReputationTopology.couldBeProoflines(receipt(7, "seller", "pass")));
        assertTrue(ReputationTopology.couldBeProoflines(receipt(8, "seller ", "pass")));
    }

    @Test
    void everyReceiptButTestOnesIsIndexedByVerificationIdWithItsPosition() {
        try (TopologyTestDriver driver = driver("rep-index")) {
            fold(driver);
            org.apache.kafka.streams.state.WindowStore<String, ReceiptPosition> index =
                    driver.getWindowStore(ReputationTopology.RECEIPT_INDEX);
            for (var expected : Map.of("id-0", 0L, "id-28", 28L, "id-41", 31L).entrySet()) {
                try (var found = index.fetch(
                        expected.getKey(), Instant.EPOCH, Instant.now().plusSeconds(86_400))) {
                    assertTrue(found.hasNext(), expected.getKey());
                    assertEquals(new ReceiptPosition(0, expected.getValue()), found.next().value, expected.getKey());
                }
            }
            // A test- receipt goes back to its caller only: it is never indexed, so never found by id.
            for (String absent : List.of("id-unknown", "id-40")) {
                try (var none = index.fetch(absent, Instant.EPOCH, Instant.now().plusSeconds(86_400))) {
                    assertFalse(none.hasNext(), absent);
                }
            }
        }
    }

    @Test
    void replayingTheReceiptsIntoAFreshApplicationRebuildsIdenticalHistories() {
        Map<String, AgentHistory> first;
        try (TopologyTestDriver driver = driver("rep-first")) {
            first = fold(driver);
        }
        try (TopologyTestDriver driver = driver("rep-replayed")) {
            assertEquals(first, fold(driver));
        }
    }

    @Test
    void receiptsCountInTheDayTheyWereVerifiedLateOnesWithinGraceAndNoLater() {
        try (TopologyTestDriver driver = driver("rep-daily")) {
            TestInputTopic<String, Receipt> in =
                    driver.createInputTopic("receipts", new StringSerializer(), new ReceiptSerializer());
            // Record times are the pipe's "now"; the windows must follow verified_at instead.
            in.pipeInput("a", receipt(1, "a", "pass", "2026-11-28T09:00:00.000000+00:00"));
            in.pipeInput("a", receipt(2, "a", "fail", "2026-11-28T23:59:59.999999+00:00"));
            in.pipeInput("a", receipt(3, "a", "pass", "2026-11-29T00:00:00.000000+00:00"));
            in.pipeInput("a", receipt(4, "a", "pass", "2026-11-30T10:00:00.000000+00:00"));
            // Late: verified on the 29th, read after a receipt of the 30th, within the one-day grace.
            in.pipeInput("a", receipt(5, "a", "fail", "2026-11-29T20:00:00.000000+00:00"));
            // Too late: the 27th closed (end + grace) before stream time reached the 30th.
            in.pipeInput("a", receipt(6, "a", "fail", "2026-11-27T12:00:00.000000+00:00"));
            org.apache.kafka.streams.state.WindowStore<String, DailyCounts> daily =
                    driver.getWindowStore(ReputationTopology.DAILY);
            Map<String, DailyCounts> byDay = new java.util.TreeMap<>();
            try (var days =
                    daily.fetch("a", Instant.parse("2026-11-01T00:00:00Z"), Instant.parse("2026-12-31T00:00:00Z"))) {
                days.forEachRemaining(d -> byDay.put(Instant.ofEpochMilli(d.key).toString(), d.value));
            }
            assertEquals(
                    Map.of(
                            "2026-11-28T00:00:00Z", new DailyCounts(1, 1),
                            "2026-11-29T00:00:00Z", new DailyCounts(1, 1),
                            "2026-11-30T00:00:00Z", new DailyCounts(1, 0)),
                    byDay);
            AgentStanding standing = new AgentStanding(
                    driver.<String, AgentHistory>getKeyValueStore(ReputationTopology.STORE)
                            .get("a"),
                    byDay.entrySet().stream()
                            .map(e -> new AgentStanding.Day(
                                    Instant.parse(e.getKey()).toEpochMilli(),
                                    e.getValue().passed(),
                                    e.getValue().failed()))
                            .toList());
            Map<String, DailyCounts> windows =
                    standing.windows(Instant.parse("2026-11-30T18:00:00Z").toEpochMilli());
            assertEquals(new DailyCounts(1, 0), windows.get("1d"));
            assertEquals(new DailyCounts(3, 2), windows.get("7d"));
            assertEquals(new DailyCounts(3, 2), windows.get("30d"));
            // The history counts every receipt, the dropped late one included; its decayed counts too.
            assertEquals(6, standing.history().total());
            assertEquals(
                    Instant.parse("2026-11-30T10:00:00Z").toEpochMilli(),
                    standing.history().decayed().anchorMillis());
        }
    }
}
