package dev.proofline.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * Counts checks as they run and keeps the findings of the failed ones, each paid for from the work
 * budget by the length of its texts: a request cannot make a verification keep more than the
 * budget allows (a million failures, each with a path of 50,000-character keys, would not fit in
 * any heap).
 */
final class CheckTally {
    private final WorkBudget budget;
    private int passed;
    private int total;
    private final List<Finding> findings = new ArrayList<>();

    CheckTally(WorkBudget budget) {
        this.budget = budget;
    }

    void pass() {
        passed++;
        total++;
    }

    void fail(Finding finding) {
        total++;
        failUncounted(finding);
    }

    /** A failure the engine did not attribute to a single counted check still counts as one. */
    void failUncounted(Finding finding) {
        budget.spendOnText(finding.textLength());
        findings.add(finding);
    }

    /** Pays for a path or other text built while checking, kept or not. */
    void spendOnText(long characters) {
        budget.spendOnText(characters);
    }

    /** Adds checks counted elsewhere (the schema walk). */
    void addCounts(int passedChecks, int totalChecks) {
        passed += passedChecks;
        total += totalChecks;
    }

    int passed() {
        return passed;
    }

    int total() {
        return total;
    }

    List<Finding> findings() {
        return findings;
    }
}
