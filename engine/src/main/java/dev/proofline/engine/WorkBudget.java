package dev.proofline.engine;

/**
 * How much work checking one request may take, counted in evaluation steps rather than time: one
 * step is one schema keyword applied at one place in the output, or one value a rule or bound
 * examines. Counting keeps the verdict a function of the request alone, the same on a busy machine
 * and in a replay; the default is sized so that no request holds a stream thread for more than
 * about a second (see the README's limits).
 *
 * <p>Two kinds of work are not one step per thing, and are charged by size: text a verification
 * builds and keeps (paths, messages of failed checks; {@link #CHARACTERS_PER_STEP}), which bounds
 * the memory one request can take, and pattern matching, whose cost on RE2/J is the input's length
 * times the size of the pattern's program ({@link #PATTERN_WORK_PER_STEP}).
 */
final class WorkBudget {
    /** Characters of kept text per step: the default budget keeps at most about 32 million. */
    static final int CHARACTERS_PER_STEP = 16;
    /**
     * Input characters times program instructions per step. RE2/J's worst case costs about 8 ns per
     * unit here, so the default budget bounds a request's matching at about 3 s of a core; typical
     * anchored patterns cost far less than the worst case, and pay a few steps per value.
     */
    static final int PATTERN_WORK_PER_STEP = 200;

    // The budget of the verification running on this thread, for work done inside the schema
    // validator's callbacks (pattern matching), which cannot be handed one.
    private static final ThreadLocal<WorkBudget> RUNNING = new ThreadLocal<>();

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

    /** Spends for {@code characters} of text built or kept. */
    void spendOnText(long characters) {
        spend(characters / CHARACTERS_PER_STEP);
    }

    long spent() {
        return spent;
    }

    /** Steps left before the limit (at least 1). */
    long remaining() {
        return Math.max(1, limit - spent);
    }

    /** Stops the verification as over its budget: work measured elsewhere ran out of what was left. */
    void exhausted() {
        throw new VerificationBudgetExceeded(limit);
    }

    /** Runs {@code work} with this budget as the thread's running one ({@link #spendOnPattern}). */
    <T> T running(java.util.function.Supplier<T> work) {
        WorkBudget outer = RUNNING.get();
        RUNNING.set(this);
        try {
            return work.get();
        } finally {
            RUNNING.set(outer);
        }
    }

    /**
     * Spends, on the budget running on this thread, for matching a pattern whose program has {@code
     * programSize} instructions against {@code inputLength} characters, before the match runs. No
     * budget runs while a schema is compiled: its own patterns are short.
     */
    static void spendOnPattern(int inputLength, int programSize) {
        WorkBudget budget = RUNNING.get();
        if (budget != null) {
            budget.spend(1 + (long) inputLength * programSize / PATTERN_WORK_PER_STEP);
        }
    }
}
