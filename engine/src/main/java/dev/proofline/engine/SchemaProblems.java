package dev.proofline.engine;

import com.networknt.schema.InvalidSchemaRefException;
import dev.proofline.contract.FieldProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Explains why a meta-valid schema still failed to compile, as field problems that name where in
 * the schema the trouble is, without repeating the caller's values: an external {@code $ref}, a
 * reference that points nowhere, or a pattern RE2 cannot run.
 */
final class SchemaProblems {
    private static final int MAX_PROBLEMS = 20;

    private SchemaProblems() {}

    static List<FieldProblem> explain(JsonNode schema, Throwable failure) {
        List<FieldProblem> problems = new ArrayList<>();
        scan(schema, "expected_schema", problems);
        if (problems.isEmpty()) {
            if (failure instanceof InvalidSchemaRefException) {
                problems.add(new FieldProblem(
                        "expected_schema",
                        "has a $ref that points nowhere inside the schema",
                        "Point every $ref at a location inside the schema, such as '#/$defs/name'."));
            } else {
                problems.add(new FieldProblem(
                        "expected_schema",
                        "cannot be compiled: a reference, a pattern or a keyword's value is not one the"
                                + " validator can use (such as a count above 2147483647)",
                        "Check references, patterns and numbers; only internal '#...' references,"
                                + " RE2-compatible patterns and counts that fit 32 bits are supported."));
            }
        }
        return problems;
    }

    /** Finds external references and patterns RE2 refuses, by location. */
    private static void scan(JsonNode node, String location, List<FieldProblem> out) {
        if (out.size() >= MAX_PROBLEMS) {
            return;
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                scan(node.get(i), location + "[" + i + "]", out);
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String key = entry.getKey();
            JsonNode value = entry.getValue();
            String here = location + "." + key;
            if ((key.equals("$ref") || key.equals("$dynamicRef"))
                    && value.isString()
                    && !value.stringValue().startsWith("#")) {
                out.add(new FieldProblem(
                        here,
                        "refers to a schema outside the request; Proofline never loads "
                                + "schemas from the network, files or the classpath",
                        "Inline the referenced schema under $defs and refer to it as '#/$defs/name'."));
            } else if (key.equals("pattern") && value.isString() && !compilesOnRe2(value.stringValue())) {
                out.add(patternProblem(here));
            } else if (key.equals("patternProperties") && value.isObject()) {
                for (String regex : value.propertyNames()) {
                    if (!compilesOnRe2(regex)) {
                        out.add(patternProblem(here));
                    }
                }
                scan(value, here, out);
            } else {
                scan(value, here, out);
            }
        }
    }

    private static FieldProblem patternProblem(String field) {
        return new FieldProblem(
                field,
                "is a regular expression Proofline cannot run in linear time",
                "Use RE2 syntax: no lookahead, lookbehind or backreferences.");
    }

    private static boolean compilesOnRe2(String regex) {
        try {
            com.google.re2j.Pattern.compile(regex);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** "$.properties.qty.minimum" (a location inside the schema) becomes "expected_schema.properties.qty.minimum". */
    static String fieldName(String location) {
        return location.equals("$") ? "expected_schema" : "expected_schema" + location.substring(1);
    }
}
