package dev.proofline.launcher;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node started while its cluster is down waits for it rather than failing: it says so once, again
 * every {@link #REMIND} while it waits, and carries on (creating topics, starting the pipeline) the
 * moment the cluster answers; the pipeline then catches up on whatever waited on the input topic.
 */
final class KafkaReachability {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaReachability.class);
    private static final Duration ASK = Duration.ofSeconds(5);
    static final Duration REMIND = Duration.ofSeconds(30);

    private KafkaReachability() {}

    /** Waits until a broker answers; returns the cluster's id. */
    static String await(Admin admin, String bootstrap) throws InterruptedException {
        long started = System.nanoTime();
        long lastSaid = 0;
        while (true) {
            try {
                String clusterId = admin.describeCluster().clusterId().get(ASK.toMillis(), TimeUnit.MILLISECONDS);
                if (lastSaid != 0) {
                    LOG.info(
                            "Kafka at {} answers after {} s; starting",
                            bootstrap,
                            Duration.ofNanos(System.nanoTime() - started).toSeconds());
                }
                return clusterId;
            } catch (ExecutionException | TimeoutException e) {
                long now = System.nanoTime();
                if (lastSaid == 0 || now - lastSaid >= REMIND.toNanos()) {
                    LOG.warn(
                            "waiting for Kafka at {}: no broker answers yet (waiting {} s)",
                            bootstrap,
                            Duration.ofNanos(now - started).toSeconds());
                    lastSaid = now;
                }
                Thread.sleep(1000);
            }
        }
    }
}
