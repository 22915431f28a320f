package dev.proofline.launcher;

import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * How many exactly-once transactions the stream threads committed during one bench phase, from
 * Kafka Streams' thread-level {@code commit-total}: each commit is one transaction, and each costs
 * the broker a commit marker on every partition the transaction wrote, so receipts per transaction
 * says how well commits are grouped.
 */
final class TransactionCount {
    private final Supplier<Map<MetricName, ? extends Metric>> metrics;
    private final double before;

    private TransactionCount(Supplier<Map<MetricName, ? extends Metric>> metrics) {
        this.metrics = metrics;
        this.before = commits();
    }

    static TransactionCount start(Supplier<Map<MetricName, ? extends Metric>> metrics) {
        return new TransactionCount(metrics);
    }

    /** One line: transactions per second over {@code seconds} and receipts per transaction. */
    String line(String phase, long receipts, double seconds) {
        double transactions = commits() - before;
        return String.format(
                "%s: %,.0f transactions (%,.0f/s), %.1f receipts per transaction",
                phase, transactions, transactions / Math.max(seconds, 1e-9), receipts / Math.max(transactions, 1));
    }

    private double commits() {
        double total = 0;
        for (Map.Entry<MetricName, ? extends Metric> metric : metrics.get().entrySet()) {
            MetricName name = metric.getKey();
            if (name.group().equals("stream-thread-metrics")
                    && name.name().equals("commit-total")
                    && metric.getValue().metricValue() instanceof Double count) {
                total += count;
            }
        }
        return total;
    }
}
