package dev.proofline.replay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a fixed stretch of topics once. Not a consumer group: every partition is assigned, nothing
 * is committed and no group exists on the broker afterwards, so a replay leaves no trace. Reads
 * {@code read_committed}, so records of aborted transactions are never replayed, and stops at the
 * end offsets taken when it opened: records published while it runs belong to the next replay.
 */
final class BoundedReader implements AutoCloseable {
    /** What to do with each record read; false stops the read early. */
    @FunctionalInterface
    interface RecordHandler {
        boolean accept(ConsumerRecord<byte[], byte[]> record) throws InterruptedException;
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Duration stallTimeout;
    private final Map<TopicPartition, Long> starts = new TreeMap<>(BoundedReader::compare);
    private final Map<TopicPartition, Long> ends = new TreeMap<>(BoundedReader::compare);

    /**
     * @param kafka        client properties (bootstrap servers, security)
     * @param topics       each topic to read, with where to start in it
     * @param stallTimeout give up when no record arrives for this long while some remain
     */
    BoundedReader(Map<String, Object> kafka, Map<String, ReplayRange.Start> topics, Duration stallTimeout) {
        Map<String, Object> config = new HashMap<>(kafka);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // An offset given on the command line may already be gone to retention: start at what is left.
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "proofline-replay");
        this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.stallTimeout = stallTimeout;
        try {
            topics.forEach(this::plan);
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    /** Where each partition is read from, inclusive. */
    Map<TopicPartition, Long> starts() {
        return Collections.unmodifiableMap(starts);
    }

    /** Where each partition's read stops, exclusive: its end offset when the reader opened. */
    Map<TopicPartition, Long> ends() {
        return Collections.unmodifiableMap(ends);
    }

    private void plan(String topic, ReplayRange.Start start) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, stallTimeout);
        if (infos == null || infos.isEmpty()) {
            throw new IllegalArgumentException("topic '" + topic + "' does not exist");
        }
        List<TopicPartition> partitions = new ArrayList<>();
        infos.forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
        Map<TopicPartition, Long> endOffsets = consumer.endOffsets(partitions, stallTimeout);
        Map<TopicPartition, Long> firstOffsets = consumer.beginningOffsets(partitions, stallTimeout);
        Map<TopicPartition, Long> from = new HashMap<>();
        if (start instanceof ReplayRange.FromTime time) {
            Map<TopicPartition, Long> times = new HashMap<>();
            // Kafka refuses a time before 1970, when no record can be: from then is from the start.
            partitions.forEach(p -> times.put(p, Math.max(0, time.time().toEpochMilli())));
            Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(times, stallTimeout);
            // No record at or after the time: nothing to read in that partition.
            partitions.forEach(p -> from.put(
                    p, found.get(p) == null ? endOffsets.get(p) : found.get(p).offset()));
        } else {
            Map<Integer, Long> given = ((ReplayRange.FromOffsets) start).offsets();
            for (Integer partition : given.keySet()) {
                if (partition >= partitions.size()) {
                    throw new IllegalArgumentException("topic '" + topic + "' has no partition " + partition
                            + " (it has " + partitions.size() + ")");
                }
            }
            // Partitions not named are not replayed.
            partitions.forEach(p -> from.put(p, given.getOrDefault(p.partition(), endOffsets.get(p))));
        }
        for (TopicPartition p : partitions) {
            long end = endOffsets.get(p);
            starts.put(p, Math.min(Math.max(from.get(p), firstOffsets.get(p)), end));
            ends.put(p, end);
        }
    }

    /** Reads every planned record once, in offset order within each partition. */
    void read(RecordHandler handler) throws InterruptedException {
        Set<TopicPartition> open = new java.util.HashSet<>();
        starts.forEach((p, start) -> {
            if (start < ends.get(p)) {
                open.add(p);
            }
        });
        consumer.assign(open);
        open.forEach(p -> consumer.seek(p, starts.get(p)));
        long lastProgress = System.nanoTime();
        while (!open.isEmpty()) {
            boolean progressed = false;
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                TopicPartition p = new TopicPartition(record.topic(), record.partition());
                progressed = true;
                if (record.offset() >= ends.get(p)) {
                    continue; // published after the replay started
                }
                if (!handler.accept(record)) {
                    return;
                }
            }
            List<TopicPartition> done = new ArrayList<>();
            for (TopicPartition p : open) {
                if (consumer.position(p) >= ends.get(p)) {
                    done.add(p);
                }
            }
            if (!done.isEmpty()) {
                done.forEach(open::remove);
                consumer.pause(done);
                progressed = true;
            }
            if (progressed) {
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > stallTimeout.toNanos()) {
                throw new IllegalStateException("no record arrived for " + stallTimeout.toSeconds() + " s while "
                        + open.size() + " partition(s) still had records to read: is Kafka reachable?");
            }
        }
    }

    @Override
    public void close() {
        consumer.close();
    }

    private static int compare(TopicPartition a, TopicPartition b) {
        int byTopic = a.topic().compareTo(b.topic());
        return byTopic != 0 ? byTopic : Integer.compare(a.partition(), b.partition());
    }
}
