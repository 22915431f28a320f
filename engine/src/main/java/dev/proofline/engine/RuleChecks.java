package dev.proofline.engine;

import dev.proofline.attestor.CanonicalJson;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Runs the business rules and bounds of a request over its output ({@code docs/request.md}).
 *
 * <p>How they are counted: every value a rule or bound examines is one check, plus one check for
 * a rule's comparison when it has one (sum_equals compares the sum once). A rule whose field
 * selects nothing is one failed check, or no check at all with {@code if_present}. A reference
 * ({@code equals_field}, {@code other_field}, {@code in_field}) that selects nothing usable is one
 * failed check and the values are not examined. The conformance invoice's sum rule is 3 checks:
 * two line totals and the comparison with the total.
 *
 * <p>Values are compared as JSON values: {@code 1} and {@code 1.0} are equal, as RFC 8785 makes
 * them; strings are compared exactly.
 */
final class RuleChecks {
    private static final String ENFORCED = "enforce_rules: ";

    private final JsonNode output;
    private final boolean enforce;
    private final CheckTally tally;
    private final WorkBudget budget;

    RuleChecks(JsonNode output, boolean enforce, CheckTally tally, WorkBudget budget) {
        this.output = output;
        this.enforce = enforce;
        this.tally = tally;
        this.budget = budget;
    }

    /** Selecting costs a step per value selected (and one for the rule); comparing against another field, one per value there. */
    private List<FieldPath.Selected> select(FieldPath path) {
        List<FieldPath.Selected> values = path.select(output);
        budget.spend(1L + values.size());
        return values;
    }

    void run(Rule rule) {
        List<FieldPath.Selected> values = select(rule.field());
        if (values.isEmpty()) {
            if (!rule.ifPresent()) {
                fail(
                        rule.type().check(),
                        rule.field(),
                        "a value at " + rule.field(),
                        "nothing",
                        "no value at '" + rule.field() + "'");
            }
            return;
        }
        switch (rule.type()) {
            case SUM_EQUALS -> sumEquals(rule, values);
            case GTE, LTE -> compare(rule, values);
            case EXISTS_IN -> existsIn(rule, values);
            case UNIQUE -> unique(rule, values);
        }
    }

    void run(Bound bound) {
        List<FieldPath.Selected> values = select(bound.path());
        Check sideForMissing = bound.min() != null ? Check.BOUNDS_MIN : Check.BOUNDS_MAX;
        if (values.isEmpty()) {
            if (!bound.ifPresent()) {
                fail(
                        sideForMissing,
                        bound.path(),
                        "a value at " + bound.path(),
                        "nothing",
                        "no value at '" + bound.path() + "'");
            }
            return;
        }
        for (FieldPath.Selected selected : values) {
            JsonNode value = selected.value();
            if (!value.isNumber()) {
                failAt(
                        sideForMissing,
                        selected,
                        "a number",
                        DisplayValues.of(value),
                        "value at '" + field(selected) + "' is not a number");
            } else if (bound.min() != null && value.doubleValue() < bound.min().value()) {
                String min = bound.min().text();
                failAt(
                        Check.BOUNDS_MIN,
                        selected,
                        ">= " + min,
                        DisplayValues.number(value),
                        "value " + DisplayValues.number(value) + " is below the minimum " + min);
            } else if (bound.max() != null && value.doubleValue() > bound.max().value()) {
                String max = bound.max().text();
                failAt(
                        Check.BOUNDS_MAX,
                        selected,
                        "<= " + max,
                        DisplayValues.number(value),
                        "value " + DisplayValues.number(value) + " is above the maximum " + max);
            } else {
                tally.pass();
            }
        }
    }

    private void sumEquals(Rule rule, List<FieldPath.Selected> values) {
        double sum = 0;
        boolean allIntegral = true;
        int decimals = 0;
        for (FieldPath.Selected selected : values) {
            if (numberOrFail(rule, selected)) {
                sum += selected.value().doubleValue();
                allIntegral &= selected.value().isIntegralNumber();
                decimals = Math.max(decimals, DisplayValues.decimals(selected.value()));
            }
        }
        Reference target = numberReference(rule);
        if (target == null) {
            return;
        }
        if (Math.abs(sum - target.number()) <= rule.tolerance()) {
            tally.pass();
        } else {
            String found = DisplayValues.missedSum(sum, allIntegral, decimals, target.number());
            fail(
                    Check.SUM_EQUALS,
                    rule.field(),
                    "a sum equal to " + target.text(),
                    "sum " + found,
                    "values sum to " + found + ", expected " + target.text());
        }
    }

    private void compare(Rule rule, List<FieldPath.Selected> values) {
        Reference limit = numberReference(rule);
        if (limit == null) {
            return;
        }
        boolean gte = rule.type() == RuleType.GTE;
        String operator = gte ? ">=" : "<=";
        for (FieldPath.Selected selected : values) {
            if (!numberOrFail(rule, selected)) {
                continue;
            }
            double value = selected.value().doubleValue();
            boolean ok = gte ? value >= limit.number() - rule.tolerance() : value <= limit.number() + rule.tolerance();
            if (ok) {
                tally.pass();
            } else {
                String shown = DisplayValues.number(selected.value());
                failAt(
                        rule.type().check(),
                        selected,
                        operator + " " + limit.text(),
                        shown,
                        "value " + shown + " is not " + operator + " " + limit.text());
            }
        }
    }

    private void existsIn(Rule rule, List<FieldPath.Selected> values) {
        Set<String> allowed = new HashSet<>();
        String description;
        if (rule.referencePath() != null) {
            List<FieldPath.Selected> pool = select(rule.referencePath());
            if (pool.isEmpty()) {
                fail(
                        Check.EXISTS_IN,
                        rule.field(),
                        "values at " + rule.referencePath(),
                        "nothing",
                        "no values at '" + rule.referencePath() + "' to look values up in");
                return;
            }
            // An array at in_field ("cats") means its elements, as a caller means it; so does cats[].
            for (FieldPath.Selected p : pool) {
                if (p.value().isArray()) {
                    p.value().forEach(element -> allowed.add(CanonicalJson.toCanonicalString(element)));
                } else {
                    allowed.add(CanonicalJson.toCanonicalString(p.value()));
                }
            }
            description = "one of the values at " + rule.referencePath();
        } else {
            rule.referenceConstant().forEach(v -> allowed.add(CanonicalJson.toCanonicalString(v)));
            description = "one of " + DisplayValues.cut(rule.referenceConstant().toString());
        }
        for (FieldPath.Selected selected : values) {
            if (allowed.contains(CanonicalJson.toCanonicalString(selected.value()))) {
                tally.pass();
            } else {
                String shown = DisplayValues.of(selected.value());
                failAt(Check.EXISTS_IN, selected, description, shown, "value " + shown + " is not " + description);
            }
        }
    }

    private void unique(Rule rule, List<FieldPath.Selected> values) {
        Map<String, String> firstSeenAt = new HashMap<>();
        for (FieldPath.Selected selected : values) {
            String key = CanonicalJson.toCanonicalString(selected.value());
            String first = firstSeenAt.putIfAbsent(key, selected.location());
            if (first == null) {
                tally.pass();
            } else {
                String shown = DisplayValues.of(selected.value());
                failAt(
                        Check.UNIQUE,
                        selected,
                        "distinct values",
                        "duplicate " + shown + " (first at " + first + ")",
                        "value " + shown + " repeats the one at '" + FieldPath.field(first) + "'");
            }
        }
    }

    /** The number a rule compares against, with how messages name it: {@code total (135.0)} or {@code 0}. */
    private record Reference(double number, String text) {}

    private Reference numberReference(Rule rule) {
        if (rule.referenceConstant() != null) {
            return new Reference(
                    rule.referenceConstant().doubleValue(), DisplayValues.number(rule.referenceConstant()));
        }
        FieldPath path = rule.referencePath();
        List<FieldPath.Selected> found = select(path);
        if (found.size() != 1 || !found.get(0).value().isNumber()) {
            String what = found.isEmpty()
                    ? "nothing"
                    : found.size() > 1
                            ? found.size() + " values"
                            : DisplayValues.of(found.get(0).value()) + " (not a number)";
            fail(
                    rule.type().check(),
                    path,
                    "one number at " + path,
                    what,
                    "expected one number at '" + path + "', found " + what);
            return null;
        }
        return new Reference(
                found.get(0).value().doubleValue(),
                path + " (" + DisplayValues.number(found.get(0).value()) + ")");
    }

    private boolean numberOrFail(Rule rule, FieldPath.Selected selected) {
        if (selected.value().isNumber()) {
            tally.pass();
            return true;
        }
        failAt(
                rule.type().check(),
                selected,
                "a number",
                DisplayValues.of(selected.value()),
                "value at '" + field(selected) + "' is not a number");
        return false;
    }

    private void fail(Check check, FieldPath path, String expected, String found, String detail) {
        tally.fail(new Finding(
                Finding.Source.INTEGRITY,
                check.id(),
                path.display(),
                path.toString(),
                expected,
                found,
                detail,
                enforce,
                ENFORCED));
    }

    private void failAt(Check check, FieldPath.Selected at, String expected, String found, String detail) {
        tally.fail(new Finding(
                Finding.Source.INTEGRITY,
                check.id(),
                at.location(),
                field(at),
                expected,
                found,
                detail,
                enforce,
                ENFORCED));
    }

    private static String field(FieldPath.Selected selected) {
        return FieldPath.field(selected.location());
    }
}
