package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.DeploymentSecret;
import dev.proofline.attestor.KeyRing;
import dev.proofline.schemas.VerificationIds;
import dev.proofline.schemas.avro.Receipt;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deployment's own keys, with real processes killed for real: the first {@code up} makes an
 * operator key and shows its token once (never in the log); a SIGKILL mid-stream and a restart keep
 * the key and give every record the id its offset and the secret determine; another deployment
 * with another secret issues other ids for the same offsets; an instance started with other keys
 * than its group's refuses to start.
 */
class DeploymentKeysIT {
    private static final int REQUESTS = 400;

    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();

    private int status(String url, String token) throws Exception {
        return http.send(
                        HttpRequest.newBuilder(URI.create(url))
                                .header("Authorization", "Bearer " + token)
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    /** Publishes the requests and returns where each landed, by task id. */
    private static Map<String, RecordMetadata> produce(String bootstrap) throws Exception {
        Map<String, Future<RecordMetadata>> sent = new HashMap<>();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; sent.size() < REQUESTS; i++) {
                if (!TestRequests.isValid(i)) {
                    continue; // receipts only: every record here must get one
                }
                sent.put(
                        TestRequests.taskId("keys-", i),
                        producer.send(new ProducerRecord<>(
                                "agent-outputs", TestRequests.agentId(i), TestRequests.request("keys-", i))));
            }
        }
        Map<String, RecordMetadata> landed = new HashMap<>();
        for (var e : sent.entrySet()) {
            landed.put(e.getKey(), e.getValue().get());
        }
        return landed;
    }

    @Test
    void keysSurviveASigkillIdsFollowTheSecretAndAStrangerKeyRingIsRefused() throws Exception {
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"))) {
            String bootstrap = kafka.bootstrapServers();
            ChildProofline first = ChildProofline.sharingWork(tmp, "a", bootstrap, "keys-it");
            // Its stdout is a pipe, as in a container, where stdout is the log: the token is not
            // printed there, only where it is kept.
            List<String> shown = first.printedBeforeReady();
            Path tokenFile = tmp.resolve("a").resolve("operator.token");
            assertEquals(
                    List.of("Operator token kept in " + tokenFile
                            + " (mode 0600); not printed, since this output is not a terminal"),
                    shown);
            String token = Files.readString(tokenFile).trim();
            assertTrue(token.startsWith("pl_"), "a token in the file");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)));
            assertEquals(200, status(first.httpUrl() + "/metrics", token));

            Map<String, RecordMetadata> landed = produce(bootstrap);
            Thread.sleep(1500); // mid-stream: some receipts committed, others not yet
            first.kill();
            String firstLog = Files.readString(tmp.resolve("a.log"));
            assertFalse(firstLog.contains(token), "the operator token in the log");

            try (ChildProofline restarted = ChildProofline.sharingWork(tmp, "a", bootstrap, "keys-it")) {
                assertEquals(List.of(), restarted.printedBeforeReady(), "no second operator token");
                assertEquals(200, status(restarted.httpUrl() + "/metrics", token), "the key survives a SIGKILL");

                var records = PipelineHarness.readCommitted(bootstrap, "receipts", REQUESTS, Duration.ofSeconds(120));
                Map<String, List<Receipt>> byTask = PipelineHarness.verifiedReceiptsByTask(
                        records,
                        restarted.httpUrl(),
                        KeyRing.openOrCreate(tmp.resolve("keys"), Clock.systemUTC())
                                .trustedKeys());
                VerificationIds ids = new VerificationIds(
                        DeploymentSecret.open(tmp.resolve("keys")).keyFor("verification-ids"));
                assertEquals(REQUESTS, byTask.size());
                for (var task : landed.entrySet()) {
                    List<Receipt> receipts = byTask.get(task.getKey());
                    assertEquals(1, receipts.size(), task.getKey() + ": exactly one receipt");
                    RecordMetadata at = task.getValue();
                    assertEquals(
                            ids.of(at.topic(), at.partition(), at.offset()).toString(),
                            receipts.get(0).getVerificationId(),
                            task.getKey() + ": its id is the keyed HMAC of where it was read");
                }
                assertFalse(Files.readString(tmp.resolve("a.log")).contains(token));

                // Another deployment (its own keys, app id and output topics) reads the same records.
                try (ChildProofline other = ChildProofline.up(
                        tmp.resolve("other.log"),
                        "--bootstrap-servers",
                        bootstrap,
                        "--data-dir",
                        tmp.resolve("other").toString(),
                        "--http-port",
                        Integer.toString(EmbeddedKafkaBroker.freePort("127.0.0.1")),
                        "--application-id",
                        "keys-it-other",
                        "--topics-receipts",
                        "other.receipts",
                        "--topics-dead-letter",
                        "other.dlq",
                        "--topics-scores",
                        "other.scores")) {
                    var theirs = PipelineHarness.readCommitted(
                            bootstrap, "other.receipts", REQUESTS, Duration.ofSeconds(120));
                    Map<String, List<Receipt>> theirByTask = PipelineHarness.verifiedReceiptsByTask(
                            theirs,
                            other.httpUrl(),
                            KeyRing.openOrCreate(tmp.resolve("other").resolve("keys"), Clock.systemUTC())
                                    .trustedKeys());
                    assertEquals(REQUESTS, theirByTask.size());
                    for (String task : landed.keySet()) {
                        assertNotEquals(
                                byTask.get(task).get(0).getVerificationId(),
                                theirByTask.get(task).get(0).getVerificationId(),
                                task + ": two secrets, two ids for one offset");
                    }
                }

                // An instance of the same group with a key ring of its own refuses to start.
                IllegalStateException refused = assertThrows(
                        IllegalStateException.class,
                        () -> ChildProofline.up(
                                tmp.resolve("stranger.log"),
                                "--bootstrap-servers",
                                bootstrap,
                                "--data-dir",
                                tmp.resolve("stranger").toString(),
                                "--http-port",
                                Integer.toString(EmbeddedKafkaBroker.freePort("127.0.0.1")),
                                "--application-id",
                                "keys-it"));
                assertTrue(refused.getMessage().contains("did not become ready"));
                String why = Files.readString(tmp.resolve("stranger.log"));
                assertTrue(why.contains("is not its group's"), why);
            }
        }
    }
}
