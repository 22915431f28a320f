package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.KeyRing;
import dev.proofline.schemas.avro.Receipt;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipeline, in a child JVM, is SIGKILLed while requests stream in and restarted on the same data
 * directory: a read_committed consumer sees every valid request's receipt exactly once.
 */
class CrashIT {
    static final int REQUESTS = 6_000;

    @TempDir
    Path tmp;

    @Test
    void sigkillMidStreamLosesNoReceiptAndDuplicatesNone() throws Exception {
        try (TestKafka broker = TestKafka.start(tmp.resolve("broker"))) {
            System.out.println("crash IT runs on " + broker.description());
            String bootstrap = broker.bootstrapServers();
            String httpPort = Integer.toString(EmbeddedKafkaBroker.freePort("127.0.0.1"));
            String[] flags = {
                "--bootstrap-servers",
                bootstrap,
                "--data-dir",
                tmp.resolve("node").toString(),
                "--http-port",
                httpPort,
                // The killed member's partitions move after its session times out: keep that short here.
                "--streams.session.timeout.ms",
                "8000"
            };
            int valid = PipelineHarness.count(0, REQUESTS, TestRequests::isValid);
            int receiptsBeforeKill;
            try (ChildProofline first = ChildProofline.up(tmp.resolve("first.log"), flags)) {
                CompletableFuture<Void> producing = CompletableFuture.runAsync(() -> {
                    for (int from = 0; from < REQUESTS; from += 500) {
                        PipelineHarness.produce(bootstrap, from, from + 500);
                    }
                });
                receiptsBeforeKill = waitForReceipts(bootstrap, valid / 4);
                first.kill();
                producing.join();
            }
            assertTrue(
                    receiptsBeforeKill < valid,
                    "the kill came mid-stream (" + receiptsBeforeKill + " of " + valid + ")");
            try (ChildProofline second = ChildProofline.up(tmp.resolve("second.log"), flags)) {
                List<ConsumerRecord<String, byte[]>> receipts =
                        PipelineHarness.readCommitted(bootstrap, "receipts", valid, Duration.ofSeconds(180));
                KeyRing keys = KeyRing.openOrCreate(tmp.resolve("node/keys"), Clock.systemUTC());
                Map<String, List<Receipt>> byTask = PipelineHarness.verifiedReceiptsByTask(
                        receipts, "http://127.0.0.1:" + httpPort, keys.trustedKeys());
                for (int i = 0; i < REQUESTS; i++) {
                    if (TestRequests.isValid(i)) {
                        List<Receipt> forTask = byTask.get(TestRequests.taskId(i));
                        assertTrue(forTask != null, "lost: " + TestRequests.taskId(i));
                        assertEquals(1, forTask.size(), "duplicated: " + TestRequests.taskId(i));
                    }
                }
                assertEquals(valid, receipts.size());
                System.out.println("crash IT: SIGKILL after " + receiptsBeforeKill + " of " + valid
                        + " receipts; after restart every receipt exactly once");
            }
        }
    }

    private static int waitForReceipts(String bootstrap, int atLeast) {
        return PipelineHarness.readCommitted(bootstrap, "receipts", atLeast, Duration.ofSeconds(120))
                .size();
    }
}
