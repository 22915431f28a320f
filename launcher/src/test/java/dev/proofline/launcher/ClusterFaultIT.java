package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.contract.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proofline on a real three-broker KRaft cluster (each broker its own JVM), where exactly-once
 * meets leader elections and fenced producers: the broker leading the most input and receipts
 * partitions SIGKILLed mid-stream and restarted; a rolling restart of all three under load; one of
 * two Proofline instances SIGKILLed while a broker is down. Each is counted with a read_committed
 * consumer (every request exactly one receipt or one dead letter) and prints how long processing
 * stalled. {@code -Dproofline.fault.requests=N} scales them (3,000 by default, 9,000 in all: three scenarios on
 * a replicated cluster are the slowest tests of the build, and CI has 20 minutes).
 */
class ClusterFaultIT {
    static final int REQUESTS = Integer.getInteger("proofline.fault.requests", 3_000);

    /**
     * One cluster for the three scenarios: starting three broker JVMs takes about 15 s on two cores.
     * Each scenario starts from all replicas in sync, counts only its own requests (its key prefix),
     * and its instances share one application id and key ring, so each goes on from where the last
     * one's committed offsets left the input.
     */
    @TempDir
    static Path tmp;

    private static BrokerCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = BrokerCluster.start(
                tmp.resolve("cluster"),
                "127.0.0.1",
                3,
                Conformance.repoRoot().resolve("launcher/target/proofline.jar"));
    }

    /**
     * The brokers are SIGKILLed rather than stopped: three stopped at once have no controller
     * majority to hand leadership to and wait 10 s each for one.
     */
    @AfterAll
    static void killCluster() throws InterruptedException {
        if (cluster != null) {
            for (int i = 0; i < cluster.size(); i++) {
                cluster.kill(i);
            }
            cluster.close();
        }
    }

    /** A scenario that failed with a broker down leaves the next a whole cluster, to fail for its own reasons. */
    @AfterEach
    void everyBrokerBackUp() throws Exception {
        for (int i = 0; i < cluster.size(); i++) {
            if (!cluster.isRunning(i)) {
                cluster.restart(i);
            }
        }
    }

    @BeforeEach
    void allReplicasInSync() throws Exception {
        awaitFullyReplicated(cluster.bootstrapServers(), Duration.ofSeconds(120));
    }

    private ChildProofline instance(String bootstrap, String name) throws Exception {
        return ChildProofline.sharingWork(tmp, name, bootstrap, "cluster-test", ChildProofline.KILLABLE);
    }

    @Test
    void leaderOfTheInputAndReceiptsKilledMidStreamThenRestarted() throws Exception {
        try (ChildProofline node = instance(cluster.bootstrapServers(), "leader-kill")) {
            String bootstrap = cluster.bootstrapServers();
            assertReplicatedThreeTimesTwoInSync(bootstrap);
            try (FaultHarness.ArrivalWatch watch = new FaultHarness.ArrivalWatch(bootstrap, "l-", REQUESTS)) {
                CompletableFuture<Void> producing =
                        CompletableFuture.runAsync(() -> FaultHarness.produce(bootstrap, "l-", REQUESTS));
                int before = watch.awaitAtLeast(REQUESTS / 4, Duration.ofSeconds(300));
                int leader = busiestLeader(bootstrap);
                cluster.kill(cluster.indexOfNodeId(leader));
                Thread.sleep(5_000);
                cluster.restart(cluster.indexOfNodeId(leader));
                producing.get(600, TimeUnit.SECONDS);
                FaultHarness.Accounting counted =
                        FaultHarness.Accounting.read(bootstrap, "l-", REQUESTS, Duration.ofSeconds(600));
                System.out.printf(
                        "cluster fault: leader broker %d SIGKILLed after %d of %d, restarted 5 s later; %s;"
                                + " longest stall %d ms%n",
                        leader, before, REQUESTS, counted, watch.longestStall().toMillis());
                counted.assertExactlyOnce(REQUESTS);
                assertTrue(before < REQUESTS, "the kill came mid-stream");
            }
        }
    }

    @Test
    void rollingRestartOfAllThreeBrokersUnderLoad() throws Exception {
        try (ChildProofline node = instance(cluster.bootstrapServers(), "rolling-restart")) {
            String bootstrap = cluster.bootstrapServers();
            try (FaultHarness.ArrivalWatch watch = new FaultHarness.ArrivalWatch(bootstrap, "r-", REQUESTS)) {
                CompletableFuture<Void> producing =
                        CompletableFuture.runAsync(() -> FaultHarness.produce(bootstrap, "r-", REQUESTS));
                int before = watch.awaitAtLeast(REQUESTS / 5, Duration.ofSeconds(300));
                for (int i = 0; i < cluster.size(); i++) {
                    cluster.stop(i);
                    cluster.restart(i);
                    awaitFullyReplicated(bootstrap, Duration.ofSeconds(120));
                }
                producing.get(600, TimeUnit.SECONDS);
                FaultHarness.Accounting counted =
                        FaultHarness.Accounting.read(bootstrap, "r-", REQUESTS, Duration.ofSeconds(600));
                System.out.printf(
                        "cluster fault: rolling restart of 3 brokers from %d of %d; %s; longest stall %d ms%n",
                        before, REQUESTS, counted, watch.longestStall().toMillis());
                counted.assertExactlyOnce(REQUESTS);
            }
        }
    }

    @Test
    void oneOfTwoInstancesKilledWhileABrokerIsDown() throws Exception {
        try (ChildProofline first = instance(cluster.bootstrapServers(), "first");
                ChildProofline second = instance(cluster.bootstrapServers(), "second")) {
            String bootstrap = cluster.bootstrapServers();
            try (FaultHarness.ArrivalWatch watch = new FaultHarness.ArrivalWatch(bootstrap, "d-", REQUESTS)) {
                CompletableFuture<Void> producing =
                        CompletableFuture.runAsync(() -> FaultHarness.produce(bootstrap, "d-", REQUESTS));
                int before = watch.awaitAtLeast(REQUESTS / 4, Duration.ofSeconds(300));
                cluster.kill(2);
                first.kill();
                int whileDown = watch.awaitAtLeast(REQUESTS * 3 / 4, Duration.ofSeconds(300));
                cluster.restart(2);
                producing.get(600, TimeUnit.SECONDS);
                FaultHarness.Accounting counted =
                        FaultHarness.Accounting.read(bootstrap, "d-", REQUESTS, Duration.ofSeconds(600));
                System.out.printf(
                        "cluster fault: broker 3 and instance 1 SIGKILLed after %d of %d, %d landed with the broker"
                                + " down; %s; longest stall %d ms%n",
                        before,
                        REQUESTS,
                        whileDown,
                        counted,
                        watch.longestStall().toMillis());
                counted.assertExactlyOnce(REQUESTS);
                assertTrue(whileDown > before, "the survivor went on with two brokers of three");
            }
        }
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of("bootstrap.servers", bootstrap));
    }

    /** Proofline's own topics, and the internal ones Kafka Streams made, have three replicas, two in sync. */
    private static void assertReplicatedThreeTimesTwoInSync(String bootstrap) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            List<String> topics = List.of(
                    Topics.DEFAULT_INPUT,
                    Topics.DEFAULT_RECEIPTS,
                    Topics.DEFAULT_DEAD_LETTER,
                    Topics.DEFAULT_SCORES,
                    dev.proofline.schemas.RegistryStore.TOPIC);
            Map<String, TopicDescription> described =
                    admin.describeTopics(topics).allTopicNames().get();
            for (String topic : topics) {
                for (TopicPartitionInfo partition : described.get(topic).partitions()) {
                    assertEquals(3, partition.replicas().size(), topic);
                }
                Config config = admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, topic)))
                        .all()
                        .get()
                        .values()
                        .iterator()
                        .next();
                assertEquals(
                        "2", config.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG).value(), topic);
            }
            for (String topic : admin.listTopics().names().get()) {
                if (topic.startsWith("cluster-test-")) { // Streams' changelogs and repartition topics
                    assertEquals(
                            3,
                            admin.describeTopics(List.of(topic))
                                    .allTopicNames()
                                    .get()
                                    .get(topic)
                                    .partitions()
                                    .get(0)
                                    .replicas()
                                    .size(),
                            topic);
                }
            }
        }
    }

    /** The broker that leads the most partitions of the input and receipts topics. */
    private static int busiestLeader(String bootstrap) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            Map<Integer, Integer> led = new HashMap<>();
            admin.describeTopics(List.of(Topics.DEFAULT_INPUT, Topics.DEFAULT_RECEIPTS))
                    .allTopicNames()
                    .get()
                    .values()
                    .forEach(t ->
                            t.partitions().forEach(p -> led.merge(p.leader().id(), 1, Integer::sum)));
            return led.entrySet().stream()
                    .max(Map.Entry.comparingByValue())
                    .orElseThrow()
                    .getKey();
        }
    }

    /**
     * Waits until every partition of every topic, Kafka's internal ones included (offsets and
     * transactions), has all three replicas in sync: no topics yet counts as in sync.
     */
    private static void awaitFullyReplicated(String bootstrap, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = admin(bootstrap)) {
            while (System.nanoTime() < deadline) {
                try {
                    Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true))
                            .names()
                            .get(10, TimeUnit.SECONDS);
                    boolean full =
                            admin.describeTopics(topics).allTopicNames().get(10, TimeUnit.SECONDS).values().stream()
                                    .allMatch(t -> t.partitions().stream()
                                            .allMatch(p -> p.isr().size() == 3));
                    if (full) {
                        return;
                    }
                } catch (Exception e) {
                    // a broker is still coming back
                }
                Thread.sleep(500);
            }
        }
        throw new AssertionError("the cluster did not get all replicas back in sync");
    }
}
