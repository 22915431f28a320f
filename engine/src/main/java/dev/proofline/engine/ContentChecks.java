package dev.proofline.engine;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Checks on the output that no schema states, and how each is counted.
 *
 * <p>Always, never blocking ({@code sanity:exact_number}): every number in the output is one check,
 * failed when RFC 8785 would change it, i.e. an integer beyond 2^53 that no double holds exactly,
 * since its hash then covers a different number. The conformance invoice has 5 numbers.
 *
 * <p>With {@code strict_content_check}, blocking:
 * <ul>
 *   <li>{@code content:undeclared_property}: one check per property of an object whose schema lists
 *       {@code properties} without {@code additionalProperties}, {@code patternProperties} or
 *       {@code unevaluatedProperties}; it fails for a name no {@code properties} at that location lists
 *       (a branch of anyOf, oneOf or if/then/else counts when the output passes it: {@link SchemaChecks}).</li>
 *   <li>{@code content:empty_required}: one check per required property present; it fails for a
 *       string that is empty or only whitespace.</li>
 *   <li>{@code content:placeholder}: one check per string in the output; it fails for a whole-value
 *       placeholder (TODO, TBD, TBA, FIXME, XXX, N/A, PLACEHOLDER, "...", "&lt;anything&gt;") or any
 *       string containing "lorem ipsum", case-insensitively.</li>
 * </ul>
 */
final class ContentChecks {
    private static final Pattern PLACEHOLDER = Pattern.compile(
            "\\s*(?:todo|tbd|tba|fixme|xxx+|n/a|placeholder|\\.{3}|\u2026|<[^<>]{0,60}>)\\s*[.!:]?\\s*",
            Pattern.CASE_INSENSITIVE);
    private static final BigDecimal TWO_POW_53 = BigDecimal.valueOf(1L << 53);
    private static final String STRICT = "strict_content_check: ";

    private ContentChecks() {}

    static void exactNumbers(JsonNode node, String location, CheckTally tally) {
        if (node.isNumber()) {
            if (node.isIntegralNumber()) {
                BigDecimal exact = new BigDecimal(node.bigIntegerValue());
                if (exact.abs().compareTo(TWO_POW_53) > 0
                        && exact.compareTo(new BigDecimal(node.bigIntegerValue().doubleValue())) != 0) {
                    tally.fail(new Finding(
                            Finding.Source.INTEGRITY,
                            Check.EXACT_NUMBER.id(),
                            location,
                            FieldPath.field(location),
                            "a number an IEEE 754 double holds exactly",
                            DisplayValues.number(node),
                            "integer has more digits than a double holds; its canonical form and hash use "
                                    // finite: a request with a number beyond the largest double is refused before any
                                    // check
                                    + dev.proofline.attestor.EcmaScriptNumbers.format(node.doubleValue()),
                            false,
                            ""));
                    return;
                }
            }
            tally.pass();
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                exactNumbers(node.get(i), child(location, i, tally), tally);
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                exactNumbers(e.getValue(), child(location, e.getKey(), tally), tally);
            }
        }
    }

    static void strict(JsonNode output, SchemaChecks.Outcome schema, CheckTally tally) {
        for (Map.Entry<String, SchemaChecks.ObjectShape> entry : schema.shapes().entrySet()) {
            String location = entry.getKey();
            SchemaChecks.ObjectShape shape = entry.getValue();
            JsonNode object = schema.objects().get(location);
            if (shape.declaresProperties && !shape.open) {
                for (String name : object.propertyNames()) {
                    String at = location + "." + name;
                    if (shape.undeclared(name)) {
                        fail(
                                tally,
                                Check.UNDECLARED_PROPERTY,
                                at,
                                "only properties the schema declares",
                                "undeclared property '" + DisplayValues.cut(name) + "'",
                                "property is not declared by the schema");
                    } else {
                        tally.pass();
                    }
                }
            }
            for (String name : shape.required) {
                JsonNode value = object.get(name);
                if (value == null) {
                    continue; // missing required properties are the schema's failure, not this check's
                }
                if (value.isString() && value.stringValue().isBlank()) {
                    fail(
                            tally,
                            Check.EMPTY_REQUIRED,
                            location + "." + name,
                            "a non-empty value",
                            DisplayValues.of(value),
                            "required property is empty");
                } else {
                    tally.pass();
                }
            }
        }
        placeholders(output, "$", tally);
    }

    private static void placeholders(JsonNode node, String location, CheckTally tally) {
        if (node.isString()) {
            String text = node.stringValue();
            boolean placeholder =
                    (text.length() <= 80 && PLACEHOLDER.matcher(text).matches())
                            || text.toLowerCase().contains("lorem ipsum");
            if (placeholder) {
                fail(
                        tally,
                        Check.PLACEHOLDER,
                        location,
                        "real content",
                        DisplayValues.of(node),
                        "value is a placeholder");
            } else {
                tally.pass();
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                placeholders(node.get(i), child(location, i, tally), tally);
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                placeholders(e.getValue(), child(location, e.getKey(), tally), tally);
            }
        }
    }

    /**
     * The path of an item or a property, paid for: every value's path is built, and under keys of
     * 50,000 characters that alone is work no step count sees.
     */
    private static String child(String location, int index, CheckTally tally) {
        String path = location + "[" + index + "]";
        tally.spendOnText(path.length());
        return path;
    }

    private static String child(String location, String name, CheckTally tally) {
        String path = location + "." + name;
        tally.spendOnText(path.length());
        return path;
    }

    private static void fail(
            CheckTally tally, Check check, String location, String expected, String found, String detail) {
        tally.fail(new Finding(
                Finding.Source.INTEGRITY,
                check.id(),
                location,
                FieldPath.field(location),
                expected,
                found,
                detail,
                true,
                STRICT));
    }
}
