package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proofline.contract.Headers;
import dev.proofline.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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

/**
 * What every fault test does around its fault: publish numbered requests as an outside client would
 * (correlation id = task id), wait for the pipeline to be mid-stream, and count what a read_committed
 * consumer finds for each request afterwards.
 */
final class FaultHarness {
    private FaultHarness() {}

    /** Publishes requests 0..n-1 with their task id as correlation id, as an outside client would. */
    static void produce(String bootstrap, String prefix, int n) {
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
    static int countUntil(String bootstrap, int wanted, Duration timeout) {
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

    /**
     * Watches receipts and dead letters land while a fault happens: how many, and the longest time
     * between two of them once the first has landed (how long processing stalled).
     */
    static final class ArrivalWatch implements AutoCloseable {
        private final Thread thread;
        private final AtomicInteger count = new AtomicInteger();
        private volatile long longestGapNanos;
        private volatile boolean running = true;

        ArrivalWatch(String bootstrap, String prefix, int expected) {
            this.thread = new Thread(
                    () -> {
                        try (KafkaConsumer<byte[], byte[]> consumer = Accounting.consumer(bootstrap)) {
                            long last = 0;
                            while (running && count.get() < expected) {
                                int landed = 0;
                                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                                    Header id = record.headers().lastHeader(Headers.CORRELATION_ID);
                                    if (id != null
                                            && new String(id.value(), StandardCharsets.UTF_8).startsWith(prefix)) {
                                        landed++;
                                    }
                                }
                                long now = System.nanoTime();
                                if (landed > 0) {
                                    if (last != 0) {
                                        longestGapNanos = Math.max(longestGapNanos, now - last);
                                    }
                                    last = now;
                                    count.addAndGet(landed);
                                }
                            }
                        }
                    },
                    "arrival-watch");
            thread.setDaemon(true);
            thread.start();
        }

        int count() {
            return count.get();
        }

        /** Blocks until at least {@code n} have landed or the timeout passes; returns how many had. */
        int awaitAtLeast(int n, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (count.get() < n && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            return count.get();
        }

        Duration longestStall() {
            return Duration.ofNanos(longestGapNanos);
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join(10_000);
        }
    }
}
