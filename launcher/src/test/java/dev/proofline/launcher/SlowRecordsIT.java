package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.StrictJson;
import dev.proofline.schemas.avro.Receipt;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * Requests that each take nearly the whole step budget (seconds of pattern matching), one on each
 * of several partitions of a single stream thread. The thread commits only after a pass over its tasks, so the
 * pass's transaction stays open for all of them together: with Kafka Streams' own 10 s transaction
 * timeout the broker aborted it, the thread was fenced, and the pass was verified again (and
 * again). Each request is verified once, and answered.
 */
@RunsAlone // its slow requests are timed, and their number chosen from that time
class SlowRecordsIT {
    /** Room for 20 s of slow requests, one per partition, down to 2 s each. */
    private static final int PARTITIONS = 11;

    @TempDir
    Path tmp;

    @Test
    void slowRequestsOnEveryPartitionOfOneThreadAreEachVerifiedOnce() throws Exception {
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"));
                ProoflineNode node = TestNodes.start(
                        kafka.bootstrapServers(),
                        tmp,
                        Map.of(
                                "topics.partitions",
                                Integer.toString(PARTITIONS),
                                "streams.num.stream.threads",
                                "1",
                                "verify.timeout.seconds",
                                "120"))) {
            System.out.println("SlowRecordsIT on " + kafka.description());
            HttpClient http = HttpClient.newHttpClient();
            long started = System.nanoTime();
            assertEquals(
                    200,
                    http.send(verify(node, "slow-timing"), HttpResponse.BodyHandlers.ofString())
                            .statusCode());
            double seconds = (System.nanoTime() - started) / 1e9;
            assumeTrue(seconds < 8, "one slow request took " + seconds + " s: too slow a machine for these margins");
            // A pass's transaction is open from its first receipt's write to the commit after the
            // last request: (n - 1) slow requests, about 20 s here, past Streams' own 10 s and well
            // within 45 s, on a slower or a faster machine alike.
            int slow = (int) Math.max(3, Math.min(PARTITIONS, Math.round(20 / seconds) + 1));
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (String agent : oneAgentPerPartition().subList(0, slow)) {
                answers.add(http.sendAsync(verify(node, agent), HttpResponse.BodyHandlers.ofString()));
            }
            for (CompletableFuture<HttpResponse<String>> answer : answers) {
                HttpResponse<String> receipt = answer.get();
                assertEquals(200, receipt.statusCode(), receipt.body());
                assertEquals(
                        "fail", StrictJson.parse(receipt.body()).get("result").asString());
            }
            assertEquals(
                    slow + 1,
                    verifications(node),
                    slow + " slow requests at once (each " + seconds + " s alone), each verified once");
        }
    }

    /**
     * Slow requests queued behind a streak of fast ones. A streak lets Streams take more records per
     * task in a pass (N grows by one for each pass that neither commits nor punctuates, and halves
     * at each commit), so without {@link dev.proofline.topology.PassLimit} the slow requests after
     * it shared one transaction, which outlived the timeout, and the thread verified the same ones
     * again and again. With it, the thread is replaced after a third of the timeout, its successor
     * starts at N = 1, and every request ends as one receipt or one dead letter.
     *
     * <p>Scaled down: the timeout is 5 s and a slow request takes about a second here. Everything
     * is written before the node starts, so its consumer has the slow requests buffered when it
     * reaches them, and early commits and the transparency log are off: their punctuators would
     * halve N every few milliseconds, which a busy pipeline does not always have either.
     */
    @Test
    void slowRequestsBehindFastOnesNeverKeepATransactionOpenTooLong() throws Exception {
        int fast = 4_000;
        int slow = 20;
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"))) {
            String bootstrap = kafka.bootstrapServers();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(new NewTopic("agent-outputs", 1, (short) 1)))
                        .all()
                        .get();
            }
            String agent = "slow-agent";
            try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                    new StringSerializer(),
                    new ByteArraySerializer())) {
                for (int i = 0; i < fast; i++) {
                    producer.send(new ProducerRecord<>(
                            "agent-outputs", TestRequests.agentId(i), TestRequests.request("fast-", i)));
                }
                for (int i = 0; i < slow; i++) {
                    byte[] request = slowRequest("slow-" + i, agent, 50_000).getBytes(StandardCharsets.UTF_8);
                    producer.send(new ProducerRecord<>("agent-outputs", agent, request));
                }
            }
            long started = System.nanoTime();
            try (ProoflineNode node = TestNodes.start(
                    bootstrap,
                    tmp,
                    Map.of(
                            "topics.partitions", "1",
                            "streams.num.stream.threads", "1",
                            "streams.producer.transaction.timeout.ms", "5000",
                            "verify.eager.commit.ms", "0",
                            "tlog.enabled", "false"))) {
                int receipts = PipelineHarness.count(0, fast, TestRequests::isValid) + slow;
                List<ConsumerRecord<String, byte[]>> written =
                        PipelineHarness.readCommitted(bootstrap, "receipts", receipts, Duration.ofSeconds(180));
                System.out.printf(
                        "SlowRecordsIT: %d receipts of %d in %d s, %s pass(es) cut%n",
                        written.size(), receipts, (System.nanoTime() - started) / 1_000_000_000, passesCut(node));
                assertEquals(receipts, written.size(), "one receipt per valid request, none twice");
                Map<String, List<Receipt>> byTask = PipelineHarness.verifiedReceiptsByTask(
                        written,
                        node.httpUrl(),
                        KeyRing.openOrCreate(tmp.resolve("node/keys"), Clock.systemUTC())
                                .trustedKeys());
                assertEquals(receipts, byTask.size(), "each task's receipt once");
                assertEquals(
                        fast - PipelineHarness.count(0, fast, TestRequests::isValid),
                        PipelineHarness.readCommitted(bootstrap, "agent-outputs.dlq", 0, Duration.ZERO)
                                .size(),
                        "one dead letter per invalid request");
                double cuts = Double.parseDouble(passesCut(node));
                assertTrue(cuts >= 1, "a pass ran long and was cut short (else this test tested nothing)");
                assertTrue(cuts <= 3, cuts + " cuts: each should move the partition on, not repeat the pass");
            }
        }
    }

    private static String passesCut(ProoflineNode node) throws Exception {
        Matcher replaced =
                Pattern.compile("proofline_stream_passes_cut_total ([0-9.E]+)").matcher(TestNodes.metrics(node));
        return replaced.find() ? replaced.group(1) : "0";
    }

    private static HttpRequest verify(ProoflineNode node, String agent) {
        return HttpRequest.newBuilder(URI.create(node.httpUrl() + "/verify/schema"))
                .POST(HttpRequest.BodyPublishers.ofString(slowRequest(agent)))
                .build();
    }

    /**
     * A string of 190,000 characters against a pattern of some 2,000 instructions: under the step
     * budget, so it is matched in full, at RE2/J's worst (about 4 s on the development machine).
     */
    private static String slowRequest(String agent) {
        return slowRequest("slow-" + agent, agent, 190_000);
    }

    /** The same pattern against {@code characters} characters: about a second for 50,000 here. */
    private static String slowRequest(String taskId, String agent, int characters) {
        ObjectNode request = StrictJson.NODES.objectNode();
        request.put("task_id", taskId);
        request.put("agent_id", agent);
        request.set("expected_schema", StrictJson.parse("{\"type\":\"string\",\"pattern\":\"[ab]{1000}c\"}"));
        request.put("submitted_output", "a".repeat(characters));
        return request.toString();
    }

    /** Agent ids that Kafka's partitioner puts on each partition once (the front door keys by agent). */
    private static List<String> oneAgentPerPartition() {
        String[] byPartition = new String[PARTITIONS];
        int found = 0;
        for (int i = 0; found < PARTITIONS; i++) {
            String agent = "slow-agent-" + i;
            int partition = Utils.toPositive(Utils.murmur2(agent.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
            if (byPartition[partition] == null) {
                byPartition[partition] = agent;
                found++;
            }
        }
        return List.of(byPartition);
    }

    private static long verifications(ProoflineNode node) throws Exception {
        String metrics = TestNodes.metrics(node);
        Matcher fails = Pattern.compile("proofline_verifications_total\\{result=\"fail\"} ([0-9.E]+)")
                .matcher(metrics);
        assertTrue(fails.find(), metrics);
        return (long) Double.parseDouble(fails.group(1));
    }
}
