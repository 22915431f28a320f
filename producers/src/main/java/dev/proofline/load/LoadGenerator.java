package dev.proofline.load;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes invoice requests onto the input topic at a steady rate for a while: the demo and
 * benchmark load. Pacing is by schedule, not by sleeping a fixed gap, so a slow send is caught up
 * rather than lost from the rate. It only publishes; the pipeline's receipts show what it made of them.
 */
public final class LoadGenerator implements AutoCloseable {
    /** How to load: requests per second, for how long (zero: until stopped), and the agents. */
    public record Plan(int ratePerSecond, Duration duration, int agents, double failRatio, long seed, String topic) {
        public Plan {
            if (ratePerSecond < 1) {
                throw new IllegalArgumentException("--rate must be at least 1 request per second");
            }
            if (duration.isNegative()) {
                throw new IllegalArgumentException("--duration cannot be negative");
            }
        }
    }

    /** Counts so far; read from any thread. */
    public static final class Counts {
        private final AtomicLong sent = new AtomicLong();
        private final AtomicLong defective = new AtomicLong();
        private final AtomicLong acknowledged = new AtomicLong();
        private final AtomicLong failedSends = new AtomicLong();

        public long sent() {
            return sent.get();
        }

        public long defective() {
            return defective.get();
        }

        public long acknowledged() {
            return acknowledged.get();
        }

        public long failedSends() {
            return failedSends.get();
        }
    }

    private final KafkaProducer<String, byte[]> producer;
    private final Plan plan;
    private final AgentMix mix;
    private final InvoiceRequests invoices;
    private final Counts counts = new Counts();
    private volatile boolean stopped;

    public LoadGenerator(String bootstrapServers, Plan plan) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        this.producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
        this.plan = plan;
        this.mix = new AgentMix(plan.agents(), plan.failRatio(), plan.seed());
        this.invoices = new InvoiceRequests(plan.seed());
    }

    public Counts counts() {
        return counts;
    }

    public AgentMix mix() {
        return mix;
    }

    /** Publishes until the plan's duration has passed or {@link #stop()} is called; then flushes. */
    public void run() {
        long start = System.nanoTime();
        long end = plan.duration().isZero()
                ? Long.MAX_VALUE
                : start + plan.duration().toNanos();
        double gapNanos = 1e9 / plan.ratePerSecond();
        long n = 0;
        while (!stopped) {
            long due = start + (long) (n * gapNanos);
            if (due >= end) {
                break;
            }
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
                continue;
            }
            send(n++);
        }
        producer.flush();
    }

    private void send(long n) {
        AgentMix.Pick pick = mix.next();
        String json = invoices.request(pick.agentId(), "load-" + plan.seed() + "-" + n, pick.defect());
        counts.sent.incrementAndGet();
        if (pick.defect() != Defect.NONE) {
            counts.defective.incrementAndGet();
        }
        producer.send(
                new ProducerRecord<>(plan.topic(), pick.agentId(), json.getBytes(StandardCharsets.UTF_8)),
                (metadata, error) -> (error == null ? counts.acknowledged : counts.failedSends).incrementAndGet());
    }

    public void stop() {
        stopped = true;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
