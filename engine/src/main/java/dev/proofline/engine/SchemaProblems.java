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
                                + " ECMA-262 patterns without lookaround or backreferences, and counts that fit 32 bits"
                                + " are supported."));
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
                    && !value.stringValue().startsWith("#")
                    && !StandardMetaSchemas.contains(value.stringValue())) {
                out.add(new FieldProblem(
                        here,
                        "refers to a schema outside the request; Proofline never loads "
                                + "schemas from the network, files or the classpath",
                        "Inline the referenced schema under $defs and refer to it as '#/$defs/name'."));
            } else if (key.equals("pattern") && value.isString()) {
                patternProblem(value.stringValue(), here).ifPresent(out::add);
            } else if (key.equals("patternProperties") && value.isObject()) {
                for (String regex : value.propertyNames()) {
                    patternProblem(regex, here).ifPresent(out::add);
                }
                scan(value, here, out);
            } else {
                scan(value, here, out);
            }
        }
    }

    /** Why a pattern cannot run, in the words of {@link EcmaScriptPatterns}, or empty when it can. */
    private static java.util.Optional<FieldProblem> patternProblem(String regex, String field) {
        try {
            Re2jRegularExpressions.compile(regex);
            return java.util.Optional.empty();
        } catch (EcmaScriptPatterns.Unsupported e) {
            return java.util.Optional.of(new FieldProblem(
                    field,
                    "holds a regular expression that " + e.getMessage(),
                    e.nonLinear()
                            ? "Rewrite it without lookahead, lookbehind or backreferences: Proofline runs patterns in"
                                    + " linear time (RE2), so no schema can stall verification."
                            : "Write the pattern in ECMA-262 syntax, as JSON Schema specifies."));
        }
    }

    /** "$.properties.qty.minimum" (a location inside the schema) becomes "expected_schema.properties.qty.minimum". */
    static String fieldName(String location) {
        return location.equals("$") ? "expected_schema" : "expected_schema" + location.substring(1);
    }
}
