package dev.proofline.launcher;

import dev.proofline.contract.Topics;
import dev.proofline.topology.Receipts;
import dev.proofline.topology.TopicLimits;
import java.util.OptionalInt;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the receipts and dead-letter topics take, read at start. Proofline makes them with room for
 * its largest records; a topic made before it may take less, and one record it refuses would fail
 * every transaction that carries it. The operator is told once, here, and the pipeline keeps within
 * the limit: a dead letter leaves out what does not fit, a receipt that does not fit is
 * dead-lettered instead ({@code docs/kafka.md}). Read once: a limit raised later applies from the
 * next start.
 */
final class ExistingTopicLimits {
    private static final Logger LOG = LoggerFactory.getLogger(ExistingTopicLimits.class);

    private ExistingTopicLimits() {}

    /**
     * @param created         the topics made just now, with Proofline's own limits: not read again
     * @param deadLetterBytes the largest dead letter Proofline writes
     */
    static TopicLimits read(Admin admin, Topics topics, Set<String> created, int deadLetterBytes)
            throws InterruptedException {
        int receiptBytes = Receipts.LARGEST_RECORD_BYTES;
        if (!created.contains(topics.receipts())) {
            receiptBytes = limit(admin, topics.receipts(), receiptBytes, "a receipt", "dead-lettered instead");
        }
        int deadLetters = deadLetterBytes;
        if (!created.contains(topics.deadLetter())) {
            deadLetters = limit(
                    admin, topics.deadLetter(), deadLetterBytes, "a dead letter", "left out of large dead letters");
        }
        return new TopicLimits(receiptBytes, deadLetters);
    }

    /** The topic's limit if under {@code needed}, with a warning; else {@code needed}. */
    private static int limit(Admin admin, String topic, int needed, String record, String whatHappens)
            throws InterruptedException {
        OptionalInt limit = TopicProvisioner.maxMessageBytes(admin, topic);
        if (limit.isEmpty()) {
            // Unread (no DescribeConfigs right, say): assume the limit a topic has unless someone
            // changed it, which takes Proofline's largest receipt but not its largest dead letter.
            // If the topic takes less, what it refuses is retried for ever: say so once.
            LOG.warn(
                    "topic {}: its max.message.bytes could not be read; Kafka's default of {} bytes is assumed, and"
                            + " a larger record than the topic takes would be retried for ever (docs/kafka.md)",
                    topic,
                    TopicProvisioner.KAFKA_DEFAULT_MAX_MESSAGE_BYTES);
            return Math.min(needed, TopicProvisioner.KAFKA_DEFAULT_MAX_MESSAGE_BYTES);
        }
        if (limit.getAsInt() < needed) {
            LOG.warn(
                    "topic {} takes records of at most {} bytes, less than {} may need ({}): what does not fit is {}"
                            + " (docs/kafka.md)",
                    topic,
                    limit.getAsInt(),
                    record,
                    needed,
                    whatHappens);
            return limit.getAsInt();
        }
        return needed;
    }
}
