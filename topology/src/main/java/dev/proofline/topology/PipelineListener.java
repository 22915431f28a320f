package dev.proofline.topology;

/**
 * What the pipeline tells an observer (metrics) about each record, so the topology itself stays
 * free of any metrics library.
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
}
