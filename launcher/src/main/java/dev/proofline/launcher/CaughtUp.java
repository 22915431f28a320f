package dev.proofline.launcher;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * How long a Kafka Streams application takes to commit everything written so far to the topics it
 * reads (its input and its own internal topics): for the bench, the time its stores go on working
 * after the last receipt. A committed offset short of a partition's end is looked at with a
 * read_committed consumer: transaction markers (and aborted records) take offsets but are no work,
 * so a gap made only of them counts as caught up.
 */
final class CaughtUp {
    private static final Duration POLL = Duration.ofMillis(100);

    /** The wait: its length, and whether it ended caught up or timed out. */
    record Wait(double seconds, boolean caughtUp) {
        String describe() {
            return caughtUp
                    ? String.format("caught up %.1f s after the last receipt", seconds)
                    : String.format("still behind %.0f s after the last receipt", seconds);
        }
    }

    private CaughtUp() {}

    static Wait await(Admin admin, String bootstrap, String applicationId, Duration timeout) throws Exception {
        long start = System.nanoTime();
        try (KafkaConsumer<byte[], byte[]> gaps = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            while (true) {
                boolean caughtUp = behind(admin, gaps, applicationId).isEmpty();
                double seconds = (System.nanoTime() - start) / 1e9;
                if (caughtUp || System.nanoTime() - start > timeout.toNanos()) {
                    return new Wait(seconds, caughtUp);
                }
                TimeUnit.MILLISECONDS.sleep(POLL.toMillis());
            }
        }
    }

    /** The partitions with a committed record after the application's committed offset. */
    private static List<TopicPartition> behind(Admin admin, KafkaConsumer<byte[], byte[]> gaps, String applicationId)
            throws Exception {
        Map<TopicPartition, Long> committed = new HashMap<>();
        admin.listConsumerGroupOffsets(applicationId)
                .partitionsToOffsetAndMetadata()
                .get()
                .forEach((partition, offset) -> committed.put(partition, offset == null ? 0 : offset.offset()));
        if (committed.isEmpty()) {
            return List.of(new TopicPartition("(nothing committed yet)", 0));
        }
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        committed.keySet().forEach(partition -> latest.put(partition, OffsetSpec.latest()));
        var ends = admin.listOffsets(latest).all().get();
        List<TopicPartition> gapped = committed.keySet().stream()
                .filter(partition -> ends.get(partition).offset() > committed.get(partition))
                .toList();
        if (gapped.isEmpty()) {
            return gapped;
        }
        gaps.assign(gapped);
        gapped.forEach(partition -> gaps.seek(partition, committed.get(partition)));
        var records = gaps.poll(POLL);
        // Behind: a record to process, or a gap the poll did not get through (not proven empty).
        return gapped.stream()
                .filter(partition -> !records.records(partition).isEmpty()
                        || gaps.position(partition) < ends.get(partition).offset())
                .toList();
    }
}
