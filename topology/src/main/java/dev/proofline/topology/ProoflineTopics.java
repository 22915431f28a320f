package dev.proofline.topology;

import dev.proofline.schemas.Topics;

/**
 * The topics of SPEC section 9, in one place.
 *
 * @param input      verification requests (value: request JSON; key: agent id or null)
 * @param receipts   signed receipts, exactly once (Avro, Confluent wire format)
 * @param deadLetter records that could not be verified, with the section 6 error document
 * @param partitions partitions of the topics Proofline creates
 */
public record ProoflineTopics(String input, String receipts, String deadLetter, int partitions) {
    public static final String DEFAULT_INPUT = Topics.INPUT;
    public static final String DEFAULT_RECEIPTS = Topics.RECEIPTS;
    public static final String DEFAULT_DEAD_LETTER = Topics.DEAD_LETTER;

    public static ProoflineTopics defaults() {
        return new ProoflineTopics(DEFAULT_INPUT, DEFAULT_RECEIPTS, DEFAULT_DEAD_LETTER, 3);
    }
}
