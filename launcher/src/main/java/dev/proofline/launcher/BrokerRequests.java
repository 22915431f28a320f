package dev.proofline.launcher;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TreeMap;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The requests the broker answered during one bench phase, by kind (Produce, Fetch, EndTxn...),
 * per receipt, from the broker's own {@code RequestsPerSec} counters. Only an embedded broker in
 * this process publishes them here; with an external one the line says so. Small requests, not
 * bytes, are what a broker spends its CPU on, so this says where a path's broker share comes from.
 */
final class BrokerRequests {
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    private final Map<String, Long> before;

    private BrokerRequests() {
        this.before = counts();
    }

    static BrokerRequests start() {
        return new BrokerRequests();
    }

    /** One line: requests per receipt in all and for each kind that had at least 0.05 per receipt. */
    String line(String phase, long receipts) {
        Map<String, Long> after = counts();
        if (after.isEmpty()) {
            return phase + ": broker requests not counted (the broker is not in this process)";
        }
        Map<String, Double> perReceipt = new TreeMap<>();
        double total = 0;
        for (Map.Entry<String, Long> kind : after.entrySet()) {
            double per = (kind.getValue() - before.getOrDefault(kind.getKey(), 0L)) / (double) Math.max(1, receipts);
            total += per;
            if (per >= 0.05) {
                perReceipt.put(kind.getKey(), per);
            }
        }
        StringBuilder line = new StringBuilder(String.format("%s: broker requests per receipt %.2f (", phase, total));
        perReceipt.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(kind -> line.append(String.format("%s %.2f, ", kind.getKey(), kind.getValue())));
        return (perReceipt.isEmpty() ? line.append("  ") : line).substring(0, line.length() - 2) + ")";
    }

    private static Map<String, Long> counts() {
        Map<String, Long> counts = new TreeMap<>();
        try {
            for (ObjectName name : SERVER.queryNames(
                    new ObjectName("kafka.network:type=RequestMetrics,name=RequestsPerSec,*"), null)) {
                String kind = name.getKeyProperty("request");
                // A fetch is counted twice, as Fetch and as FetchConsumer or FetchFollower: keep the first.
                boolean fetchAgain = "FetchConsumer".equals(kind) || "FetchFollower".equals(kind);
                if (kind != null && !fetchAgain && SERVER.getAttribute(name, "Count") instanceof Long count) {
                    counts.merge(kind, count, Long::sum);
                }
            }
        } catch (Exception e) {
            return Map.of(); // no such beans: an external broker
        }
        return counts;
    }
}
