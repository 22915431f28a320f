package dev.proofline.schemas;

/** The default topic names of the Kafka contract (SPEC section 9); deployments may rename them. */
public final class Topics {
    public static final String INPUT = "agent-outputs";
    public static final String RECEIPTS = "receipts";
    public static final String DEAD_LETTER = "agent-outputs.dlq";

    private Topics() {
    }
}
