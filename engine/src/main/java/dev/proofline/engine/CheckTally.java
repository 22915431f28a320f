package dev.proofline.engine;

import java.util.ArrayList;
import java.util.List;

/** Counts checks as they run and keeps the findings of the failed ones. */
final class CheckTally {
    private int passed;
    private int total;
    private final List<Finding> findings = new ArrayList<>();

    void pass() {
        passed++;
        total++;
    }

    void fail(Finding finding) {
        total++;
        findings.add(finding);
    }

    /** A failure the engine did not attribute to a single counted check still counts as one. */
    void failUncounted(Finding finding) {
        findings.add(finding);
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
