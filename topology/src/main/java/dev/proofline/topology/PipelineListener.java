package dev.proofline.topology;

/**
 * What the pipeline tells an observer (metrics, health) about each record, so the topology itself
 * stays free of any metrics library. Called on stream threads: implementations must be quick and
 * thread-safe.
 */
public interface PipelineListener {
    PipelineListener NONE = new PipelineListener() {
        @Override
        public void verified(String result, long nanos) {}

        @Override
        public void deadLettered(String errorCode) {}
    };

    /** A receipt was signed; {@code nanos} is the time spent verifying and signing it. */
    void verified(String result, long nanos);

    /** A record went to the dead-letter topic with this error code. */
    void deadLettered(String errorCode);

    /**
     * A receipt was larger than the receipts topic takes, so its request was dead-lettered
     * ({@link #deadLettered} is told too): the operator's topic, not the verifier, is at fault.
     */
    default void receiptTooLarge() {}

    /** The calling stream thread starts on a record. */
    default void started() {}

    /** The calling stream thread is done with its record, whatever became of it, after {@code nanos}. */
    default void finished(long nanos) {}

    /** Tells both, in order. */
    static PipelineListener both(PipelineListener first, PipelineListener second) {
        return new PipelineListener() {
            @Override
            public void verified(String result, long nanos) {
                first.verified(result, nanos);
                second.verified(result, nanos);
            }

            @Override
            public void deadLettered(String errorCode) {
                first.deadLettered(errorCode);
                second.deadLettered(errorCode);
            }

            @Override
            public void receiptTooLarge() {
                first.receiptTooLarge();
                second.receiptTooLarge();
            }

            @Override
            public void started() {
                first.started();
                second.started();
            }

            @Override
            public void finished(long nanos) {
                first.finished(nanos);
                second.finished(nanos);
            }
        };
    }
}
