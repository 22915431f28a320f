package dev.proofline.query.payment;

/** What the operator sees of payments: metrics count them; the default does nothing. */
public interface PaymentListener {
    PaymentListener NONE = new PaymentListener() {};

    /** A payment the facilitator accepted, before the request was served. */
    default void paid() {}

    /** A payment settled on chain; {@code transaction} is its reference. */
    default void settled(String transaction) {}

    /** A refusal, by error code. */
    default void refused(String code) {}
}
