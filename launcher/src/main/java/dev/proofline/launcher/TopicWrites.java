package dev.proofline.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

/**
 * Counts what a run wrote to Kafka: the end offsets of every topic, internal ones included, before
 * and after. An offset is a record or a transaction marker (a control record takes an offset too),
 * so the difference is every write the broker appended, which is what the bench reports per receipt.
 */
final class TopicWrites {
    private final Admin admin;
    private final Map<String, Long> before;

    private TopicWrites(Admin admin, Map<String, Long> before) {
        this.admin = admin;
        this.before = before;
    }

    static TopicWrites start(Admin admin) throws Exception {
        return new TopicWrites(admin, endOffsets(admin));
    }

    /** Appends per topic since {@link #start}, topics with none left out, sorted by name. */
    Map<String, Long> since() throws Exception {
        Map<String, Long> after = endOffsets(admin);
        Map<String, Long> written = new TreeMap<>();
        after.forEach((topic, end) -> {
            long delta = end - before.getOrDefault(topic, 0L);
            if (delta > 0) {
                written.put(topic, delta);
            }
        });
        return written;
    }

    private static Map<String, Long> endOffsets(Admin admin) throws Exception {
        var names = admin.listTopics(new ListTopicsOptions().listInternal(true))
                .names()
                .get();
        Map<String, TopicDescription> topics =
                admin.describeTopics(names).allTopicNames().get();
        List<TopicPartition> partitions = new ArrayList<>();
        topics.values()
                .forEach(t -> t.partitions().forEach(p -> partitions.add(new TopicPartition(t.name(), p.partition()))));
        ListOffsetsResult offsets = admin.listOffsets(
                partitions.stream().collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest())));
        Map<String, Long> ends = new TreeMap<>();
        for (TopicPartition partition : partitions) {
            ends.merge(
                    partition.topic(), offsets.partitionResult(partition).get().offset(), Long::sum);
        }
        return ends;
    }
}
