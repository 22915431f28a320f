package dev.proofline.launcher;

import dev.proofline.contract.Topics;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the pipeline appended to Kafka per receipt, topic by topic ({@link TopicWrites} counts them):
 * receipts, every store's changelog, score updates, offset commits and the transaction log, with
 * transaction markers included (they take offsets). The requests themselves are shown apart.
 */
final class WritesPerReceipt {
    private WritesPerReceipt() {}

    static String line(Map<String, Long> written, long receipts) {
        Map<String, Long> byKind = new TreeMap<>();
        long requests = 0;
        long total = 0;
        for (Map.Entry<String, Long> topic : written.entrySet()) {
            String name = topic.getKey();
            if (name.equals(Topics.DEFAULT_INPUT)) {
                requests += topic.getValue();
                continue;
            }
            byKind.merge(kind(name), topic.getValue(), Long::sum);
            total += topic.getValue();
        }
        StringBuilder line = new StringBuilder(
                String.format("pipeline writes per receipt     %10.2f  (", (double) total / Math.max(1, receipts)));
        byKind.forEach((kind, count) ->
                line.append(String.format("%s %.2f, ", kind, (double) count / Math.max(1, receipts))));
        return line.append(String.format("markers included; requests %.2f)", (double) requests / Math.max(1, receipts)))
                .toString();
    }

    private static String kind(String topic) {
        if (topic.equals(Topics.DEFAULT_RECEIPTS)) {
            return "receipts";
        } else if (topic.equals(Topics.DEFAULT_SCORES)) {
            return "score updates";
        } else if (topic.equals(Topics.DEFAULT_DEAD_LETTER)) {
            return "dead letters";
        } else if (topic.equals("__consumer_offsets")) {
            return "offset commits";
        } else if (topic.equals("__transaction_state")) {
            return "transaction log";
        } else if (topic.endsWith("-changelog")) {
            // <application.id>-<store>-changelog; the bench's application id is bench-<uuid>
            String store = topic.substring(0, topic.length() - "-changelog".length());
            return withoutApplicationId(store) + " changelog";
        }
        return withoutApplicationId(topic); // the log's topic and its entries' repartition topic
    }

    /** The bench's application id is bench-<uuid>, and it starts every internal topic's name. */
    private static String withoutApplicationId(String topic) {
        return topic.replaceFirst("^bench-[0-9a-f-]{36}-", "");
    }
}
