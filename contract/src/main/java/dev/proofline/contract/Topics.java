package dev.proofline.contract;

/**
 * The names of Proofline's topics ({@code docs/kafka.md}): one record that every part takes, so a
 * deployment that renames a topic renames it everywhere at once.
 *
 * @param input      verification requests (value: request JSON; key: agent id or null)
 * @param receipts   signed receipts, exactly once (Avro in the Confluent wire format)
 * @param deadLetter records that could not be verified, with the error document
 * @param scores     every agent's score after each change (compacted, keyed by agent id)
 */
public record Topics(String input, String receipts, String deadLetter, String scores) {
    public static final String DEFAULT_INPUT = "agent-outputs";
    public static final String DEFAULT_RECEIPTS = "receipts";
    public static final String DEFAULT_DEAD_LETTER = "agent-outputs.dlq";
    public static final String DEFAULT_SCORES = "agent-scores";

    public Topics {
        requireName(input, "input");
        requireName(receipts, "receipts");
        requireName(deadLetter, "dead letter");
        requireName(scores, "scores");
    }

    public static Topics defaults() {
        return new Topics(DEFAULT_INPUT, DEFAULT_RECEIPTS, DEFAULT_DEAD_LETTER, DEFAULT_SCORES);
    }

    public Topics withInput(String name) {
        return new Topics(name, receipts, deadLetter, scores);
    }

    public Topics withReceipts(String name) {
        return new Topics(input, name, deadLetter, scores);
    }

    public Topics withDeadLetter(String name) {
        return new Topics(input, receipts, name, scores);
    }

    public Topics withScores(String name) {
        return new Topics(input, receipts, deadLetter, name);
    }

    private static void requireName(String name, String what) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("the " + what + " topic needs a name");
        }
    }
}
