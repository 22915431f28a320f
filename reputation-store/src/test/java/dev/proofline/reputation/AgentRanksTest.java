package dev.proofline.reputation;

import static dev.proofline.reputation.TestReceipts.receipt;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proofline.contract.Topics;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.InMemorySchemaRegistry;
import dev.proofline.schemas.avro.Receipt;
import dev.proofline.schemas.avro.ScoreUpdate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/** The rank store is the leaderboard's order, kept by byte order alone. */
class AgentRanksTest {

    /** Unsigned lexicographic, as RocksDB and the in-memory stores compare keys. */
    private static final Comparator<Bytes> STORE_ORDER = Comparator.naturalOrder();

    @Test
    void rankKeysSortAsTheLeaderboard() {
        Random random = new Random(42);
        String[] ids = {"a", "b", "ab", "é", "\uD83D\uDE00", "\uFFFD", "z", "agent-1", "agent-10", "agent-2"};
        List<AgentSummary> rows = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            String id = ids[random.nextInt(ids.length)] + (random.nextBoolean() ? "" : ids[random.nextInt(ids.length)]);
            rows.add(new AgentSummary(id + i % 7, random.nextInt(50), random.nextInt(20), null, null));
        }
        List<AgentSummary> byBytes = new ArrayList<>(rows);
        byBytes.sort(Comparator.comparing(r -> AgentRanks.rankKey(r.agentId(), r.passed(), r.failed()), STORE_ORDER));
        List<AgentSummary> expected = new ArrayList<>(rows);
        expected.sort(AgentSummary.BEST_FIRST);
        assertEquals(expected, byBytes);
    }

    @Test
    void theRankStoreFollowsEveryScoreChange() {
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        AvroSerde<Receipt> receipts = new AvroSerde<>(registry, Receipt.getClassSchema());
        AvroSerde<ScoreUpdate> scores = new AvroSerde<>(registry, ScoreUpdate.getClassSchema());
        StreamsBuilder builder = new StreamsBuilder();
        ReputationTopology.addTo(builder, Topics.defaults(), receipts, scores, Duration.ofDays(7));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "ranks");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            TestInputTopic<String, Receipt> in = driver.createInputTopic(
                    "receipts",
                    new StringSerializer(),
                    (topic, r) -> receipts.serializer().serialize(topic, r));
            Random random = new Random(7);
            for (int i = 0; i < 3_000; i++) {
                String agent = "agent-" + random.nextInt(200);
                in.pipeInput(agent, receipt(i, agent, random.nextInt(10) < 7 ? "pass" : "fail"));
            }
            KeyValueStore<String, AgentHistory> histories = driver.getKeyValueStore(ReputationTopology.STORE);
            List<AgentSummary> expected = new ArrayList<>();
            histories.all().forEachRemaining(kv -> expected.add(AgentSummary.of(kv.value)));
            expected.sort(AgentSummary.BEST_FIRST);

            KeyValueStore<Bytes, byte[]> ranks = driver.getKeyValueStore(AgentRanks.STORE);
            List<AgentSummary> ranked = new ArrayList<>();
            ranks.range(AgentRanks.FIRST_RANK, AgentRanks.COUNT).forEachRemaining(kv -> {
                if (!kv.key.equals(AgentRanks.COUNT)) {
                    ranked.add(AgentRanks.row(kv.value));
                }
            });
            assertEquals(expected, ranked, "one current row per agent, in order");
            assertEquals(expected.size(), AgentRanks.count(ranks.get(AgentRanks.COUNT)));
        }
    }
}
