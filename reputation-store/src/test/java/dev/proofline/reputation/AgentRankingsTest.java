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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/** The rankings are the leaderboard's order of the current histories, one row per agent. */
class AgentRankingsTest {

    @Test
    void aRankingFollowsEveryChangeOfItsRows() {
        AgentRankings rankings = new AgentRankings();
        AgentRankings.Ranking ranking = rankings.start(0, new AgentRankings.Ranking());
        Random random = new Random(42);
        Map<String, AgentSummary> current = new HashMap<>();
        for (int i = 0; i < 20_000; i++) {
            String agent = "agent-" + random.nextInt(500);
            AgentSummary before = current.get(agent);
            long passed = (before == null ? 0 : before.passed()) + (random.nextInt(10) < 7 ? 1 : 0);
            long failed = (before == null ? 0 : before.failed()) + (random.nextInt(10) < 3 ? 1 : 0);
            AgentSummary row = new AgentSummary(agent, passed, failed, "t" + i, "pass");
            current.put(agent, row);
            ranking.update(row);
        }
        List<AgentSummary> expected = new ArrayList<>(current.values());
        expected.sort(AgentSummary.BEST_FIRST);
        assertEquals(expected, rankings.best(10_000));
        assertEquals(expected.subList(0, 50), rankings.best(50));
        assertEquals(500, rankings.agentCount());
        rankings.stop(0, ranking);
        assertEquals(0, rankings.agentCount(), "a task that leaves takes its agents along");
    }

    @Test
    void theTopologyRanksItsHistories() {
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        AvroSerde<Receipt> receipts = new AvroSerde<>(registry, Receipt.getClassSchema());
        AvroSerde<ScoreUpdate> scores = new AvroSerde<>(registry, ScoreUpdate.getClassSchema());
        AgentRankings rankings = new AgentRankings();
        StreamsBuilder builder = new StreamsBuilder();
        ReputationTopology.addTo(
                builder, Topics.defaults(), receipts, scores, Duration.ofDays(7), Duration.ofDays(30), rankings);
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
            assertEquals(expected, rankings.best(1_000), "one current row per agent, in order");
            assertEquals(expected.size(), rankings.agentCount());
        }
    }
}
