package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults on a real broker, each mid-stream, each counted with a read_committed consumer over the
 * receipts and dead-letter topics: every request ends as exactly one receipt (valid ones) or one
 * dead letter (invalid ones); none lost, none duplicated. {@code -Dproofline.fault.requests=N}
 * scales them (20,000 by default, as CI runs them).
 */
class FaultToleranceIT {
    static final int REQUESTS = Integer.getInteger("proofline.fault.requests", 20_000);

    @TempDir
    Path tmp;

    private ChildProofline instance(String bootstrap, String name) throws Exception {
        return ChildProofline.sharingWork(tmp, name, bootstrap, "fault-test");
    }

    @Test
    void brokerStoppedAndRestartedMidStream() throws Exception {
        Path brokerDir = tmp.resolve("broker");
        int kafkaPort = EmbeddedKafkaBroker.freePort("127.0.0.1");
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(brokerDir, "127.0.0.1", kafkaPort);
        String bootstrap = broker.bootstrapServers();
        try (ChildProofline node = instance(bootstrap, "node")) {
            CompletableFuture<Void> producing =
                    CompletableFuture.runAsync(() -> FaultHarness.produce(bootstrap, "b-", REQUESTS));
            int before = FaultHarness.countUntil(bootstrap, REQUESTS / 4, Duration.ofSeconds(180));
            broker.close();
            Thread.sleep(5_000); // clients notice, producers and the pipeline retry
            broker = EmbeddedKafkaBroker.start(brokerDir, "127.0.0.1", kafkaPort);
            producing.get(300, TimeUnit.SECONDS);
            FaultHarness.Accounting counted =
                    FaultHarness.Accounting.read(bootstrap, "b-", REQUESTS, Duration.ofSeconds(300));
            System.out.printf("fault: broker restarted after %d of %d records; %s%n", before, REQUESTS, counted);
            counted.assertExactlyOnce(REQUESTS);
            assertTrue(before < REQUESTS, "the broker stopped mid-stream");
        } finally {
            broker.close();
        }
    }

    @Test
    void oneOfTwoInstancesKilledMidStream() throws Exception {
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"))) {
            String bootstrap = kafka.bootstrapServers();
            try (ChildProofline first =
                            ChildProofline.sharingWork(tmp, "first", bootstrap, "fault-test", ChildProofline.KILLABLE);
                    ChildProofline second = ChildProofline.sharingWork(
                            tmp, "second", bootstrap, "fault-test", ChildProofline.KILLABLE)) {
                CompletableFuture<Void> producing =
                        CompletableFuture.runAsync(() -> FaultHarness.produce(bootstrap, "k-", REQUESTS));
                int before = FaultHarness.countUntil(bootstrap, REQUESTS / 4, Duration.ofSeconds(180));
                first.kill();
                producing.get(300, TimeUnit.SECONDS);
                FaultHarness.Accounting counted =
                        FaultHarness.Accounting.read(bootstrap, "k-", REQUESTS, Duration.ofSeconds(300));
                System.out.printf(
                        "fault: one of two instances SIGKILLed after %d of %d records; %s%n",
                        before, REQUESTS, counted);
                counted.assertExactlyOnce(REQUESTS);
                assertTrue(before < REQUESTS, "the kill came mid-stream");
            }
        }
    }

    @Test
    void nodeStartedWhileTheBrokerIsDownWaitsAndCatchesUp() throws Exception {
        // The broker's port is not bound until later, so the node's HTTP port is chosen with it.
        int[] ports = EmbeddedKafkaBroker.freePorts("127.0.0.1", 2);
        int kafkaPort = ports[0];
        String bootstrap = "127.0.0.1:" + kafkaPort;
        Path log = tmp.resolve("node.log");
        CompletableFuture<ChildProofline> starting = CompletableFuture.supplyAsync(() -> {
            try {
                return ChildProofline.sharingWork(tmp, "node", bootstrap, "fault-test", ports[1]);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(log) && Files.readString(log).contains("waiting for Kafka"))
                && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertTrue(Files.readString(log).contains("waiting for Kafka at " + bootstrap), "the node says it waits");
        assertTrue(!starting.isDone(), "the node waits rather than failing");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(tmp.resolve("broker"), "127.0.0.1", kafkaPort);
                ChildProofline node = starting.get(180, TimeUnit.SECONDS)) {
            FaultHarness.produce(bootstrap, "w-", REQUESTS);
            FaultHarness.Accounting counted =
                    FaultHarness.Accounting.read(bootstrap, "w-", REQUESTS, Duration.ofSeconds(300));
            System.out.printf("fault: node started with the broker down, then caught up; %s%n", counted);
            counted.assertExactlyOnce(REQUESTS);
        }
    }
}
