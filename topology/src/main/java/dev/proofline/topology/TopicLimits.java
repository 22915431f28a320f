package dev.proofline.topology;

/**
 * The largest record each topic the verification writes takes (its {@code max.message.bytes}), as
 * read at start. A record over its topic's limit fails the transaction, and the request it answers
 * would be verified and refused again for ever; the verifying processor keeps within these.
 *
 * @param receiptBytes    the receipts topic's limit
 * @param deadLetterBytes the dead-letter topic's limit
 */
public record TopicLimits(int receiptBytes, int deadLetterBytes) {
    /** Topics that take anything: no record is ever changed or turned away for its size. */
    public static final TopicLimits NONE = new TopicLimits(Integer.MAX_VALUE, Integer.MAX_VALUE);

    public TopicLimits {
        if (receiptBytes <= 0 || deadLetterBytes <= 0) {
            throw new IllegalArgumentException("a topic's limit is a positive number of bytes");
        }
    }

    /** Whether every receipt Proofline can sign fits the receipts topic, so none needs measuring. */
    boolean takesEveryReceipt() {
        return receiptBytes >= Receipts.LARGEST_RECORD_BYTES;
    }
}
