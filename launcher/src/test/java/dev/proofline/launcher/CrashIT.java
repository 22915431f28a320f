package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.StrictJson;
import dev.proofline.schemas.avro.Receipt;
import dev.proofline.tlog.InclusionProof;
import dev.proofline.tlog.LogRecords;
import dev.proofline.tlog.NoteVerifier;
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
 * directory: a read_committed consumer sees every valid request's receipt exactly once, and the
 * restarted node does not wait for its killed self to time out of the group.
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
                // Longer than the restarted node waits to be running (120 s): only if it takes its own
                // place in the group at once (static membership) does it start before the dead
                // member's session times out.
                "--streams.session.timeout.ms",
                "150000"
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
                // The transparency log: every receipt in it once, every checkpoint ever committed
                // (before and after the kill) consistent with the last.
                List<String> entries = new java.util.ArrayList<>();
                byTask.values()
                        .forEach(list -> list.forEach(r ->
                                entries.add(java.util.HexFormat.of().formatHex(LogRecords.entry(r.getSignedJson())))));
                String url = "http://127.0.0.1:" + httpPort;
                NoteVerifier verifier = NoteVerifier.parse(StrictJson.parse(java.net.http.HttpClient.newHttpClient()
                                .send(
                                        java.net.http.HttpRequest.newBuilder(
                                                        java.net.URI.create(url + "/.well-known/agent-card.json"))
                                                .build(),
                                        java.net.http.HttpResponse.BodyHandlers.ofString())
                                .body())
                        .get("transparency_log")
                        .get("verifier_key")
                        .asString());
                awaitCheckpointOf(url, valid);
                int checkpoints = TransparencyLogAudit.audit(bootstrap, "proofline-tlog", verifier, entries);
                int proved = proveSome(url, tmp.resolve("node"), byTask, verifier, valid);
                System.out.println("crash IT: SIGKILL after " + receiptsBeforeKill + " of " + valid
                        + " receipts; after restart every receipt exactly once, in the transparency log once, "
                        + checkpoints + " checkpoints all consistent with the last; " + proved
                        + " receipts from before and after the kill proved against the last");
            }
        }
    }

    /**
     * Every 50th receipt's inclusion proof, as the restarted instance serves it: it indexes the
     * entries from the bundles it reads, so this shows the index survived the kill and the restore.
     */
    private static int proveSome(
            String url, Path dataDir, Map<String, List<Receipt>> byTask, NoteVerifier log, long size) throws Exception {
        String operator = "Bearer " + OperatorKey.read(dataDir).orElseThrow();
        List<Receipt> all = new java.util.ArrayList<>();
        byTask.values().forEach(all::addAll);
        all.sort(java.util.Comparator.comparing(Receipt::getTaskId));
        java.util.Set<Long> indexes = new java.util.HashSet<>();
        for (int i = 0; i < all.size(); i += 50) {
            Receipt receipt = all.get(i);
            java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
                    .send(
                            java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                                            url + "/receipts/" + receipt.getVerificationId() + "/proof"))
                                    .header("Authorization", operator)
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), receipt.getTaskId() + ": " + response.body());
            InclusionProof proof = InclusionProof.parse(response.body());
            assertEquals(
                    size,
                    proof.verify(LogRecords.entry(receipt.getSignedJson()), log).size());
            assertTrue(indexes.add(proof.index()), "two receipts at index " + proof.index());
        }
        return indexes.size();
    }

    private static void awaitCheckpointOf(String url, long size) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
                    .send(
                            java.net.http.HttpRequest.newBuilder(java.net.URI.create(url + "/tlog/checkpoint"))
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200 && response.body().split("\n")[1].equals(Long.toString(size))) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("no checkpoint of size " + size + " within 60 s");
    }

    private static int waitForReceipts(String bootstrap, int atLeast) {
        // No settling: on a fast machine the pipeline finishes the stream within the usual 2 s.
        return PipelineHarness.readCommitted(bootstrap, "receipts", atLeast, Duration.ofSeconds(120), Duration.ZERO)
                .size();
    }
}
