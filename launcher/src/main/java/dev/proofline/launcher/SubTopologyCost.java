package dev.proofline.launcher;

import dev.proofline.topology.VerificationTopology;
import dev.proofline.topology.tlog.TransparencyLogTopology;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Each sub-topology's cost per record, from Kafka Streams' task-level {@code process-latency-avg}
 * (recorded at the DEBUG metrics level, which the bench's node turns on): the time a task spends on
 * one record, its sinks' serialization and sends included. Printed so that a feature that adds work
 * per receipt shows where it landed.
 */
final class SubTopologyCost {
    private SubTopologyCost() {}

    static String line(Map<MetricName, ? extends Metric> metrics) {
        Map<String, double[]> bySubTopology = new TreeMap<>(); // sub-topology id -> {sum, tasks}
        Map<String, Set<String>> nodes = new HashMap<>();
        metrics.forEach((name, metric) -> {
            String task = name.tags().get("task-id");
            if (task == null) {
                return;
            }
            String subTopology = task.substring(0, task.indexOf('_'));
            String node = name.tags().get("processor-node-id");
            if (node != null) {
                nodes.computeIfAbsent(subTopology, s -> new TreeSet<>()).add(node);
            }
            if (name.group().equals("stream-task-metrics") && name.name().equals("process-latency-avg")) {
                Object value = metric.metricValue();
                if (value instanceof Double nanos && !nanos.isNaN()) {
                    double[] sum = bySubTopology.computeIfAbsent(subTopology, s -> new double[2]);
                    sum[0] += nanos;
                    sum[1]++;
                }
            }
        });
        StringBuilder line = new StringBuilder("per record, by sub-topology (Streams process-latency-avg):");
        bySubTopology.forEach((id, sum) -> {
            Set<String> in = nodes.getOrDefault(id, Set.of());
            String name = in.contains(VerificationTopology.SOURCE)
                    ? "verification"
                    : in.contains(TransparencyLogTopology.ENTRIES + "-repartition-source")
                            ? "transparency log (sequencer)"
                            : "receipts (index, scores, log entries)";
            line.append(String.format(" %s %.0f µs;", name, sum[0] / sum[1] / 1000));
        });
        return bySubTopology.isEmpty() ? line + " not recorded" : line.substring(0, line.length() - 1);
    }
}
