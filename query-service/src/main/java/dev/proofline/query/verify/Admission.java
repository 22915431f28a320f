package dev.proofline.query.verify;

import dev.proofline.query.Answer;
import java.util.function.UnaryOperator;

/**
 * Whether a valid request may be verified now, and how its answer is finished: the free allowance
 * and payments decide here, after the request was checked (an invalid request is never pointed at
 * payment) and before anything is published.
 */
@FunctionalInterface
public interface Admission {
    /** Every valid request goes ahead, its answer unchanged. */
    Admission FREE = () -> new Decision.Proceed(UnaryOperator.identity());

    Decision admit();

    sealed interface Decision {
        /** Answer this instead; nothing is published. */
        record Refuse(Answer answer) implements Decision {}

        /** Verify; then {@code finish} sees the answer (to keep or refund, settle, add headers). */
        record Proceed(UnaryOperator<Answer> finish) implements Decision {}
    }
}
