package dev.proofline.reputation.query;

/**
 * The stores cannot answer now (a rebalance, a restoration, an instance that does not answer): the
 * caller should retry shortly. The query service maps it, in one place, to {@code not_ready}.
 */
public final class NotQueryableException extends RuntimeException {
    public NotQueryableException(String message) {
        super(message, null, false, false); // expected and frequent during a rebalance: no stack trace
    }
}
