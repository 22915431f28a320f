package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.contract.Headers;
import dev.proofline.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
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

    private String[] flags(String bootstrap, String name, String httpPort) {
        return new String[] {
            "--bootstrap-servers",
            bootstrap,
            "--data-dir",
            tmp.resolve(name).toString(),
            "--keys-dir",
            tmp.resolve("keys").toString(),
            "--http-port",
            httpPort,
            "--application-id",
            "fault-test",
            // A killed member's partitions move once its session times out: keep that short here.
            "--streams.session.timeout.ms",
            "8000"
        };
    }

    private static String port() throws Exception {
        return Integer.toString(EmbeddedKafkaBroker.freePort("127.0.0.1"));
    }

    @Test
    void brokerStoppedAndRestartedMidStream() throws Exception {
        Path brokerDir = tmp.resolve("broker");
        int kafkaPort = EmbeddedKafkaBroker.freePort("127.0.0.1");
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(brokerDir, "127.0.0.1", kafkaPort);
        String bootstrap = broker.bootstrapServers();
        try (ChildProofline node = ChildProofline.up(tmp.resolve("node.log"), flags(bootstrap, "node", port()))) {
            CompletableFuture<Void> producing = CompletableFuture.runAsync(() -> produce(bootstrap, "b-", REQUESTS));
            int before = countUntil(bootstrap, REQUESTS / 4, Duration.ofSeconds(180));
            broker.close();
            Thread.sleep(5_000); // clients notice, producers and the pipeline retry
            broker = EmbeddedKafkaBroker.start(brokerDir, "127.0.0.1", kafkaPort);
            producing.get(300, TimeUnit.SECONDS);
            Accounting counted = Accounting.read(bootstrap, "b-", REQUESTS, Duration.ofSeconds(300));
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
            try (ChildProofline first = ChildProofline.up(tmp.resolve("first.log"), flags(bootstrap, "first", port()));
                    ChildProofline second =
                            ChildProofline.up(tmp.resolve("second.log"), flags(bootstrap, "second", port()))) {
                CompletableFuture<Void> producing =
                        CompletableFuture.runAsync(() -> produce(bootstrap, "k-", REQUESTS));
                int before = countUntil(bootstrap, REQUESTS / 4, Duration.ofSeconds(180));
                first.kill();
                producing.get(300, TimeUnit.SECONDS);
                Accounting counted = Accounting.read(bootstrap, "k-", REQUESTS, Duration.ofSeconds(300));
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
        int kafkaPort = EmbeddedKafkaBroker.freePort("127.0.0.1");
        String bootstrap = "127.0.0.1:" + kafkaPort;
        Path log = tmp.resolve("node.log");
        CompletableFuture<ChildProofline> starting = CompletableFuture.supplyAsync(() -> {
            try {
                return ChildProofline.up(log, flags(bootstrap, "node", port()));
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
            produce(bootstrap, "w-", REQUESTS);
            Accounting counted = Accounting.read(bootstrap, "w-", REQUESTS, Duration.ofSeconds(300));
            System.out.printf("fault: node started with the broker down, then caught up; %s%n", counted);
            counted.assertExactlyOnce(REQUESTS);
        }
    }

    /** Publishes requests 0..n-1 with their task id as correlation id, as an outside client would. */
    private static void produce(String bootstrap, String prefix, int n) {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                ProducerConfig.LINGER_MS_CONFIG,
                5,
                // Outlive a broker restart: keep retrying rather than give up on a record.
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                300_000,
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                300_000);
        AtomicInteger failed = new AtomicInteger();
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < n; i++) {
                ProducerRecord<String, byte[]> record = new ProducerRecord<>(
                        Topics.DEFAULT_INPUT, TestRequests.agentId(i), TestRequests.request(prefix, i));
                record.headers()
                        .add(
                                Headers.CORRELATION_ID,
                                TestRequests.taskId(prefix, i).getBytes(StandardCharsets.UTF_8));
                producer.send(record, (metadata, error) -> {
                    if (error != null) {
                        failed.incrementAndGet();
                    }
                });
            }
            producer.flush();
        }
        assertEquals(0, failed.get(), "the broker acknowledged every request");
    }

    /** Waits until at least {@code wanted} receipts and dead letters are committed; returns how many there were. */
    private static int countUntil(String bootstrap, int wanted, Duration timeout) {
        try (KafkaConsumer<byte[], byte[]> consumer = Accounting.consumer(bootstrap)) {
            int seen = 0;
            long deadline = System.nanoTime() + timeout.toNanos();
            while (seen < wanted && System.nanoTime() < deadline) {
                seen += consumer.poll(Duration.ofMillis(200)).count();
            }
            return seen;
        }
    }

    /** What a read_committed consumer found for each request, by correlation id. */
    record Accounting(int receipts, int deadLetters, int lost, int duplicated, int wrongKind) {
        static KafkaConsumer<byte[], byte[]> consumer(String bootstrap) {
            KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                    Map.of(
                            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            bootstrap,
                            ConsumerConfig.GROUP_ID_CONFIG,
                            "fault-reader-" + UUID.randomUUID(),
                            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                            "earliest",
                            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                            "read_committed"),
                    new ByteArrayDeserializer(),
                    new ByteArrayDeserializer());
            consumer.subscribe(List.of(Topics.DEFAULT_RECEIPTS, Topics.DEFAULT_DEAD_LETTER));
            return consumer;
        }

        static Accounting read(String bootstrap, String prefix, int n, Duration timeout) {
            Map<String, Integer> receipts = new HashMap<>();
            Map<String, Integer> deadLetters = new HashMap<>();
            int total = 0;
            try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap)) {
                long deadline = System.nanoTime() + timeout.toNanos();
                long settle = Long.MAX_VALUE;
                while (System.nanoTime() < Math.min(deadline, settle)) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(250))) {
                        Header id = record.headers().lastHeader(Headers.CORRELATION_ID);
                        String name = id == null ? "" : new String(id.value(), StandardCharsets.UTF_8);
                        if (!name.startsWith(prefix)) {
                            continue;
                        }
                        (record.topic().equals(Topics.DEFAULT_RECEIPTS) ? receipts : deadLetters)
                                .merge(name, 1, Integer::sum);
                        total++;
                    }
                    if (total >= n && settle == Long.MAX_VALUE) {
                        settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(3); // a duplicate would show now
                    }
                }
            }
            int lost = 0;
            int duplicated = 0;
            int wrongKind = 0;
            for (int i = 0; i < n; i++) {
                String name = TestRequests.taskId(prefix, i);
                int r = receipts.getOrDefault(name, 0);
                int d = deadLetters.getOrDefault(name, 0);
                lost += r + d == 0 ? 1 : 0;
                duplicated += Math.max(0, r + d - 1);
                wrongKind += (TestRequests.isValid(i) ? d : r) > 0 ? 1 : 0;
            }
            return new Accounting(
                    receipts.values().stream().mapToInt(Integer::intValue).sum(),
                    deadLetters.values().stream().mapToInt(Integer::intValue).sum(),
                    lost,
                    duplicated,
                    wrongKind);
        }

        void assertExactlyOnce(int n) {
            assertEquals(0, lost, "lost: " + this);
            assertEquals(0, duplicated, "duplicated: " + this);
            assertEquals(0, wrongKind, "a valid request dead-lettered or an invalid one signed: " + this);
            assertEquals(n, receipts + deadLetters, this.toString());
        }

        @Override
        public String toString() {
            return receipts + " receipts + " + deadLetters + " dead letters, " + lost + " lost, " + duplicated
                    + " duplicated";
        }
    }
}
