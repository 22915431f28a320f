package dev.proofline.contract;

/** Record header names of the Kafka contract: Proofline reads and writes them, clients set and read them. */
public final class Headers {
    /** On a request: echoed on its receipt, so a caller can match reply to request. */
    public static final String CORRELATION_ID = "proofline.correlation-id";
    /** On a dead letter: the original value, where it came from and why it is here. */
    public static final String ORIGINAL_VALUE = "proofline.original.value";
    /** On a dead letter too large for its topic with everything: what was left out ("value" or "value,headers"). */
    public static final String ORIGINAL_OMITTED = "proofline.original.omitted";

    public static final String SOURCE_TOPIC = "proofline.source.topic";
    public static final String SOURCE_PARTITION = "proofline.source.partition";
    public static final String SOURCE_OFFSET = "proofline.source.offset";
    public static final String ERROR_CODE = "proofline.error.code";
    /**
     * On a request published by the front door: who submitted it, and an HMAC binding that name to
     * the request's bytes under the deployment's secret. A record without a valid pair is Kafka's own.
     */
    public static final String SUBMITTER = "proofline.submitter";

    public static final String SUBMITTER_MAC = "proofline.submitter.mac";
    /** On a record of the callers topic: its HMAC under the deployment's secret. */
    public static final String RECORD_MAC = "proofline.record.mac";

    private Headers() {}
}
