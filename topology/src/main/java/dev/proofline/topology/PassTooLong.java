package dev.proofline.topology;

/**
 * Thrown by {@link PassLimit} to end a stream thread's pass before its transaction times out. An
 * expected event, not a bug: the thread is replaced and the pass verified again, so no stack trace
 * is kept.
 */
public final class PassTooLong extends RuntimeException {
    PassTooLong(long openMillis) {
        super(
                "a stream thread's transaction was open " + openMillis + " ms with more records to verify",
                null,
                false,
                false);
    }
}
