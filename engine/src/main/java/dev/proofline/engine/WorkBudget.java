package dev.proofline.engine;

/**
 * How much work checking one request may take, counted in evaluation steps rather than time: one
 * step is one schema keyword applied at one place in the output, or one value a rule or bound
 * examines. Counting keeps the verdict a function of the request alone, the same on a busy machine
 * and in a replay; the default is sized so that no request holds a stream thread for more than
 * about a second (see the README's limits).
 */
final class WorkBudget {
    private final long limit;
    private long spent;

    WorkBudget(long limit) {
        this.limit = limit;
    }

    /** Spends {@code steps}; past the limit, the whole verification stops with {@link VerificationBudgetExceeded}. */
    void spend(long steps) {
        spent += steps;
        if (spent > limit) {
            throw new VerificationBudgetExceeded(limit);
        }
    }

    long spent() {
        return spent;
    }
}
