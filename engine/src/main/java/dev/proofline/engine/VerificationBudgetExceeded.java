package dev.proofline.engine;

/**
 * A valid request whose checks would take more evaluation steps than the budget allows. Expected
 * on hostile input, so it carries no stack trace; it becomes the error document
 * {@code verification_budget_exceeded}, never a receipt.
 */
public final class VerificationBudgetExceeded extends RuntimeException {
    private final long budgetSteps;

    public VerificationBudgetExceeded(long budgetSteps) {
        super("over the budget of " + budgetSteps + " evaluation steps", null, false, false);
        this.budgetSteps = budgetSteps;
    }

    public long budgetSteps() {
        return budgetSteps;
    }
}
