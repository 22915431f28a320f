package dev.proofline.reputation.query;

import dev.proofline.reputation.ReceiptPosition;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.avro.Receipt;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads signed receipts back from the receipts topic by position: the topic is the store, and an
 * agent's history remembers where its recent receipts are. Any instance can read any partition,
 * so no forwarding is needed. A few consumers (no group, committed records only), each used by one
 * read at a time: a read mostly waits on the broker, so reads run side by side.
 */
public final class ReceiptLog implements AutoCloseable {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(3);
    public static final int READERS = 4;

    private final BlockingQueue<KafkaConsumer<byte[], byte[]>> idle = new ArrayBlockingQueue<>(READERS);
    private final List<KafkaConsumer<byte[], byte[]>> all = new ArrayList<>(READERS);
    private final String topic;
    private final AvroSerde<Receipt> receipts;
    private final RecentReceipts recent;

    public ReceiptLog(Map<String, Object> client, String topic, AvroSerde<Receipt> receipts) {
        this(client, topic, receipts, new RecentReceipts(0));
    }

    /** With the newest receipts kept in memory: those are read without going to the broker. */
    public ReceiptLog(Map<String, Object> client, String topic, AvroSerde<Receipt> receipts, RecentReceipts recent) {
        Map<String, Object> config = new HashMap<>(client);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 100);
        // After each poll the consumer prefetches past the end of the partition, and the broker holds
        // that fetch for fetch.max.wait.ms; the next seek must wait for it. Keep the wait short.
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 1);
        for (int i = 0; i < READERS; i++) {
            KafkaConsumer<byte[], byte[]> consumer =
                    new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            all.add(consumer);
            idle.add(consumer);
        }
        this.topic = topic;
        this.receipts = receipts;
        this.recent = recent;
    }

    /**
     * The receipts at these positions, in the same order; empty where a receipt is no longer there
     * (retention removed it) or its position is unknown. Records read on the way that are also wanted
     * are kept, so receipts close together cost one fetch.
     */
    public List<Optional<Receipt>> read(List<ReceiptPosition> positions) {
        Map<ReceiptPosition, Receipt> cached = new HashMap<>();
        for (ReceiptPosition position : positions) {
            recent.find(position).ifPresent(value -> cached.put(position, receipts.deserialize(value)));
        }
        if (cached.size() == positions.size()) {
            return positions.stream().map(p -> Optional.of(cached.get(p))).toList();
        }
        List<ReceiptPosition> missing =
                positions.stream().filter(p -> !cached.containsKey(p)).toList();
        List<Optional<Receipt>> fromKafka = readFromKafka(missing);
        for (int i = 0; i < missing.size(); i++) {
            ReceiptPosition position = missing.get(i);
            fromKafka.get(i).ifPresent(receipt -> cached.put(position, receipt));
        }
        return positions.stream().map(p -> Optional.ofNullable(cached.get(p))).toList();
    }

    private List<Optional<Receipt>> readFromKafka(List<ReceiptPosition> positions) {
        KafkaConsumer<byte[], byte[]> consumer;
        try {
            consumer = idle.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return positions.stream().map(p -> Optional.<Receipt>empty()).toList();
        }
        try {
            return read(consumer, positions);
        } finally {
            idle.add(consumer);
        }
    }

    private List<Optional<Receipt>> read(KafkaConsumer<byte[], byte[]> consumer, List<ReceiptPosition> positions) {
        Map<ReceiptPosition, Receipt> found = new HashMap<>();
        // Oldest first: one fetch from the oldest usually brings the newer ones along.
        List<ReceiptPosition> oldestFirst = positions.stream()
                .sorted(Comparator.comparingInt(ReceiptPosition::partition).thenComparingLong(ReceiptPosition::offset))
                .toList();
        for (ReceiptPosition wanted : oldestFirst) {
            if (wanted.partition() < 0 || found.containsKey(wanted)) {
                continue;
            }
            TopicPartition partition = new TopicPartition(topic, wanted.partition());
            consumer.assign(List.of(partition));
            consumer.seek(partition, wanted.offset());
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (!found.containsKey(wanted)
                    && System.nanoTime() < deadline
                    && consumer.position(partition) <= wanted.offset()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    ReceiptPosition position = new ReceiptPosition(record.partition(), record.offset());
                    if (record.value() != null && positions.contains(position)) {
                        found.put(position, receipts.deserialize(record.value()));
                    }
                }
            }
        }
        return positions.stream().map(p -> Optional.ofNullable(found.get(p))).toList();
    }

    /** Closes every consumer; the HTTP server has stopped by then, so none is in use. */
    @Override
    public void close() {
        all.forEach(KafkaConsumer::close);
    }
}
