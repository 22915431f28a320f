package dev.proofline.engine;

import dev.proofline.contract.ErrorDocument;

/**
 * What the engine makes of one request's bytes, whatever they are: a signed receipt, or the error
 * document that refuses it. Kafka, REST and the CLI all take this one answer, so the same bad input
 * gets the same error everywhere.
 */
public sealed interface Verdict {
    /** A valid request, checked and signed ({@code result} pass or fail). */
    record Signed(SignedReceipt receipt) implements Verdict {}

    /**
     * No receipt: the request is invalid, too large, over the work budget, or the verifier failed on
     * it; then {@code cause} says why, for the operator's log only.
     */
    record Refused(ErrorDocument error, Throwable cause) implements Verdict {
        public Refused(ErrorDocument error) {
            this(error, null);
        }
    }
}
