package dev.proofline.engine;

import dev.proofline.attestor.CanonicalJsonException;
import dev.proofline.attestor.CanonicalRequest;
import dev.proofline.attestor.RequestHashes;
import dev.proofline.contract.AgentIds;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.FieldProblem;
import dev.proofline.contract.RequestFields;
import dev.proofline.contract.ShortText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Checks a verification request before anything else happens ({@code docs/request.md}) and turns it into a
 * {@link VerificationRequest}, or into the section 6 error document with one {@code fields} entry
 * per problem. Problems name fields and say how to fix them; they never repeat the caller's values.
 *
 * <p>Unknown fields are refused rather than ignored: a typo such as {@code enforce_rule} must not
 * silently turn a rule check off.
 */
public final class RequestParser {
    public static final int MAX_ID_LENGTH = 200;
    private static final Set<String> REQUEST_FIELDS = Set.copyOf(RequestFields.ALL);
    private static final Set<String> RULE_FIELDS = Set.of(
            "type",
            "field",
            "equals_field",
            "equals",
            "other_field",
            "value",
            "in_field",
            "values",
            "tolerance",
            "if_present");
    private static final Set<String> BOUND_FIELDS = Set.of("min", "max", "if_present");
    private static final int MAX_NAME_IN_MESSAGE = 64;

    private final SchemaCompiler schemas;
    private final int maxRequestBytes;
    private final RepeatedSchemas repeatedSchemas = new RepeatedSchemas();

    public RequestParser(SchemaCompiler schemas, int maxRequestBytes) {
        this.schemas = schemas;
        this.maxRequestBytes = maxRequestBytes;
    }

    /** The compiler (and cache) this parser compiles schemas with. */
    public SchemaCompiler schemas() {
        return schemas;
    }

    public int maxRequestBytes() {
        return maxRequestBytes;
    }

    public ParseOutcome parse(byte[] body) {
        if (body.length > maxRequestBytes) {
            return new ParseOutcome.Invalid(ErrorDocument.payloadTooLarge(body.length, maxRequestBytes));
        }
        RepeatedSchemas.Read read;
        try {
            read = repeatedSchemas.read(body);
        } catch (CanonicalJsonException e) {
            return invalid(List.of(new FieldProblem(
                    "body",
                    "is " + e.getMessage(),
                    "Send one JSON object, encoded as UTF-8, with no duplicate keys.")));
        }
        return parse(read.request(), read.known(), read.unseen());
    }

    public ParseOutcome parse(JsonNode request) {
        return parse(request, null, null);
    }

    /** How many requests reused the schema of an earlier one ({@link RepeatedSchemas}), since start. */
    public long schemasReused() {
        return repeatedSchemas.reused();
    }

    private ParseOutcome parse(
            JsonNode request, RepeatedSchemas.Known knownSchema, RepeatedSchemas.SchemaBytes unseenSchema) {
        if (!request.isObject()) {
            return invalid(List.of(new FieldProblem(
                    "body",
                    "is not a JSON object",
                    "Send one JSON object with task_id, expected_schema and submitted_output.")));
        }
        List<FieldProblem> problems = new ArrayList<>();
        for (String name : request.propertyNames()) {
            if (!REQUEST_FIELDS.contains(name)) {
                problems.add(new FieldProblem(
                        shortName(name),
                        "is not a field of a verification request",
                        "Remove it; the fields are " + String.join(", ", sorted(REQUEST_FIELDS)) + "."));
            }
        }
        String taskId = id(request, "task_id", true, problems);
        String agentId = agentId(request.get(RequestFields.AGENT_ID), problems);
        JsonNode schema = request.get("expected_schema");
        if (schema == null || schema.isNull()) {
            problems.add(required("expected_schema", "Send the JSON Schema the output must meet."));
        } else if (!schema.isObject() && !schema.isBoolean()) {
            problems.add(new FieldProblem(
                    "expected_schema",
                    "is not a schema (an object, or true or false)",
                    "Send a JSON Schema object, e.g. {\"type\": \"object\"}."));
        }
        JsonNode output = request.get("submitted_output");
        if (output == null) {
            problems.add(required("submitted_output", "Send the output to verify (any JSON value)."));
        }
        List<Rule> rules = rules(request.get("rules"), problems);
        List<Bound> bounds = bounds(request.get("bounds"), problems);
        boolean enforceRules = flag(request, "enforce_rules", problems);
        boolean strict = flag(request, "strict_content_check", problems);
        Detail detail = detail(request.get("detail"), problems);
        if (!problems.isEmpty()) {
            return invalid(problems);
        }
        RequestHashes.Hashed hashed;
        try {
            // also proves every hashed value has a canonical form
            hashed = RequestHashes.hash(request, knownSchema == null ? null : knownSchema.form());
        } catch (CanonicalJsonException e) {
            return invalid(
                    List.of(
                            new FieldProblem(
                                    e.path(),
                                    e.getMessage().substring(e.path().length() + 2),
                                    "Send only values JSON can hash canonically: finite numbers and strings of whole Unicode characters.")));
        }
        RequestHashes hashes = hashed.hashes();
        SchemaCompiler.Compilation compilation = schemas.compile(schema, hashes.schemaHash());
        if (compilation instanceof SchemaCompiler.Compilation.Rejected rejected) {
            return invalid(rejected.problems());
        }
        if (unseenSchema != null) {
            repeatedSchemas.remember(unseenSchema, schema, hashed.schema());
        }
        CompiledSchema compiled = ((SchemaCompiler.Compilation.Compiled) compilation).schema();
        return new ParseOutcome.Valid(new VerificationRequest(
                taskId, agentId, schema, output, rules, bounds, enforceRules, strict, detail, hashes, compiled));
    }

    private static String id(JsonNode request, String name, boolean required, List<FieldProblem> problems) {
        JsonNode value = request.get(name);
        if (value == null || value.isNull()) {
            if (required) {
                problems.add(required(name, "Send a string of 1 to " + MAX_ID_LENGTH + " characters."));
            }
            return null;
        }
        if (!value.isString()) {
            problems.add(new FieldProblem(
                    name,
                    "is not a string",
                    "Send a string of 1 to " + MAX_ID_LENGTH + " characters" + (required ? "." : ", or null.")));
            return null;
        }
        String text = value.stringValue();
        // Characters as JSON Schema's maxLength and agent ids count them: code points, not UTF-16 units.
        if (text.isEmpty() || text.codePointCount(0, text.length()) > MAX_ID_LENGTH) {
            problems.add(new FieldProblem(
                    name,
                    text.isEmpty() ? "is empty" : "is longer than " + MAX_ID_LENGTH + " characters",
                    "Send a string of 1 to " + MAX_ID_LENGTH + " characters."));
            return null;
        }
        return text;
    }

    /** An optional agent id, held to {@link AgentIds}: an id that can be stored can be queried. */
    private static String agentId(JsonNode value, List<FieldProblem> problems) {
        if (value == null || value.isNull()) {
            return null;
        }
        String fix = "Send " + AgentIds.RULES + ", or null.";
        if (!value.isString()) {
            problems.add(new FieldProblem(RequestFields.AGENT_ID, "is not a string", fix));
            return null;
        }
        Optional<String> problem = AgentIds.problem(value.stringValue());
        if (problem.isPresent()) {
            problems.add(new FieldProblem(RequestFields.AGENT_ID, problem.get(), fix));
            return null;
        }
        return value.stringValue();
    }

    private static List<Rule> rules(JsonNode rules, List<FieldProblem> problems) {
        List<Rule> parsed = new ArrayList<>();
        if (rules == null || rules.isNull()) {
            return parsed;
        }
        if (!rules.isArray()) {
            problems.add(new FieldProblem("rules", "is not an array", "Send a list of rule objects, or null."));
            return parsed;
        }
        for (int i = 0; i < rules.size(); i++) {
            Rule rule = rule(rules.get(i), "rules[" + i + "]", problems);
            if (rule != null) {
                parsed.add(rule);
            }
        }
        return parsed;
    }

    private static Rule rule(JsonNode node, String at, List<FieldProblem> problems) {
        if (!node.isObject()) {
            problems.add(new FieldProblem(
                    at, "is not an object", "Send {\"type\": ..., \"field\": ...} and the fields its type uses."));
            return null;
        }
        int before = problems.size();
        for (String name : node.propertyNames()) {
            if (!RULE_FIELDS.contains(name)) {
                problems.add(new FieldProblem(
                        at + "." + shortName(name),
                        "is not a field of a rule",
                        "Remove it; rule fields are " + String.join(", ", sorted(RULE_FIELDS)) + "."));
            }
        }
        JsonNode typeNode = node.get("type");
        RuleType type = null;
        if (typeNode == null || typeNode.isNull()) {
            problems.add(required(at + ".type", "Use one of: " + RuleType.ALLOWED + "."));
        } else if (!typeNode.isString() || (type = RuleType.fromWireName(typeNode.stringValue())) == null) {
            problems.add(new FieldProblem(
                    at + ".type", "is not one of the allowed values", "Use one of: " + RuleType.ALLOWED + "."));
        }
        FieldPath field = path(node.get("field"), at + ".field", true, problems);
        double tolerance = CanonicalRequest.DEFAULT_TOLERANCE;
        JsonNode toleranceNode = node.get("tolerance");
        if (toleranceNode != null) {
            if (!toleranceNode.isNumber() || !(toleranceNode.doubleValue() >= 0)) {
                problems.add(new FieldProblem(
                        at + ".tolerance",
                        "is not a non-negative number",
                        "Send a number >= 0, or leave it out for 1e-9."));
            } else {
                tolerance = toleranceNode.doubleValue();
            }
        }
        boolean ifPresent = flag(node, "if_present", at + ".if_present", problems);
        if (type == null) {
            return null;
        }
        FieldPath referencePath = null;
        JsonNode constant = null;
        if (type == RuleType.UNIQUE) {
            for (String unused : List.of("equals_field", "equals", "other_field", "value", "in_field", "values")) {
                if (present(node, unused)) {
                    problems.add(new FieldProblem(at + "." + unused, "is not used by a unique rule", "Remove it."));
                }
            }
        } else {
            String pathName = type.referenceField();
            String constantName = type.referenceConstant();
            boolean hasPath = present(node, pathName);
            boolean hasConstant = present(node, constantName);
            if (hasPath == hasConstant) {
                problems.add(new FieldProblem(
                        at + "." + pathName,
                        hasPath ? "is set together with " + constantName : "is missing, and so is " + constantName,
                        "A " + type.wireName() + " rule needs exactly one of " + pathName + " (a path) or "
                                + constantName + " (" + (type == RuleType.EXISTS_IN ? "a list" : "a number") + ")."));
            } else if (hasPath) {
                referencePath = path(node.get(pathName), at + "." + pathName, true, problems);
            } else {
                constant = node.get(constantName);
                boolean ok = type == RuleType.EXISTS_IN ? constant.isArray() : constant.isNumber();
                if (!ok) {
                    problems.add(new FieldProblem(
                            at + "." + constantName,
                            type == RuleType.EXISTS_IN ? "is not a list" : "is not a number",
                            type == RuleType.EXISTS_IN
                                    ? "Send the allowed values as a JSON array."
                                    : "Send a number."));
                }
            }
        }
        for (String name : List.of("equals_field", "equals", "other_field", "value", "in_field", "values")) {
            if (type != RuleType.UNIQUE
                    && present(node, name)
                    && !name.equals(type.referenceField())
                    && !name.equals(type.referenceConstant())) {
                problems.add(new FieldProblem(
                        at + "." + name,
                        "is not used by a " + type.wireName() + " rule",
                        "Remove it; a " + type.wireName() + " rule uses " + type.referenceField() + " or "
                                + type.referenceConstant() + "."));
            }
        }
        return problems.size() == before ? new Rule(type, field, referencePath, constant, tolerance, ifPresent) : null;
    }

    private static List<Bound> bounds(JsonNode bounds, List<FieldProblem> problems) {
        List<Bound> parsed = new ArrayList<>();
        if (bounds == null || bounds.isNull()) {
            return parsed;
        }
        if (!bounds.isObject()) {
            problems.add(new FieldProblem(
                    "bounds", "is not an object", "Send a map from a path to {min, max, if_present}, or null."));
            return parsed;
        }
        for (Map.Entry<String, JsonNode> entry : bounds.properties()) {
            String at = "bounds[\"" + shortName(entry.getKey()) + "\"]";
            int before = problems.size();
            FieldPath path = FieldPath.parse(entry.getKey());
            if (path == null) {
                problems.add(new FieldProblem(at, "is not a valid path", FieldPath.describeSyntax()));
            }
            JsonNode bound = entry.getValue();
            if (!bound.isObject()) {
                problems.add(new FieldProblem(at, "is not an object", "Send {\"min\": number, \"max\": number}."));
                continue;
            }
            for (String name : bound.propertyNames()) {
                if (!BOUND_FIELDS.contains(name)) {
                    problems.add(new FieldProblem(
                            at + "." + shortName(name),
                            "is not a field of a bound",
                            "Remove it; bound fields are min, max and if_present."));
                }
            }
            Bound.Limit min = limit(bound.get("min"), at + ".min", problems);
            Bound.Limit max = limit(bound.get("max"), at + ".max", problems);
            boolean ifPresent = flag(bound, "if_present", at + ".if_present", problems);
            if (min == null && max == null && problems.size() == before) {
                problems.add(new FieldProblem(at, "has neither min nor max", "Set min, max or both."));
            } else if (min != null && max != null && min.value() > max.value()) {
                problems.add(new FieldProblem(at + ".min", "is greater than max", "Set min <= max."));
            }
            if (problems.size() == before) {
                parsed.add(new Bound(path, min, max, ifPresent));
            }
        }
        return parsed;
    }

    private static Bound.Limit limit(JsonNode node, String at, List<FieldProblem> problems) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isNumber() || !Double.isFinite(node.doubleValue())) {
            problems.add(new FieldProblem(at, "is not a number", "Send a number, or null for no limit."));
            return null;
        }
        return new Bound.Limit(node.doubleValue(), DisplayValues.number(node));
    }

    private static FieldPath path(JsonNode node, String at, boolean required, List<FieldProblem> problems) {
        if (node == null || node.isNull()) {
            if (required) {
                problems.add(required(at, FieldPath.describeSyntax()));
            }
            return null;
        }
        FieldPath path = node.isString() ? FieldPath.parse(node.stringValue()) : null;
        if (path == null) {
            problems.add(new FieldProblem(
                    at, node.isString() ? "is not a valid path" : "is not a string", FieldPath.describeSyntax()));
        }
        return path;
    }

    private static boolean flag(JsonNode request, String name, List<FieldProblem> problems) {
        return flag(request, name, name, problems);
    }

    private static boolean flag(JsonNode node, String name, String at, List<FieldProblem> problems) {
        JsonNode value = node.get(name);
        if (value == null) {
            return false;
        }
        if (!value.isBoolean()) {
            problems.add(new FieldProblem(at, "is not a boolean", "Send true or false, or leave it out for false."));
            return false;
        }
        return value.booleanValue();
    }

    private static Detail detail(JsonNode value, List<FieldProblem> problems) {
        if (value == null || value.isNull()) {
            return Detail.FULL;
        }
        if (value.isString() && value.stringValue().equals("full")) {
            return Detail.FULL;
        }
        if (value.isString() && value.stringValue().equals("compact")) {
            return Detail.COMPACT;
        }
        problems.add(
                new FieldProblem("detail", "is not one of the allowed values", "Use one of: 'full' or 'compact'."));
        return Detail.FULL;
    }

    private static boolean present(JsonNode node, String name) {
        JsonNode value = node.get(name);
        return value != null && !value.isNull();
    }

    private static FieldProblem required(String field, String fix) {
        return new FieldProblem(field, "is required", fix);
    }

    private static String shortName(String name) {
        return name.length() <= MAX_NAME_IN_MESSAGE ? name : ShortText.prefix(name, MAX_NAME_IN_MESSAGE) + "...";
    }

    private static List<String> sorted(Set<String> names) {
        return names.stream().sorted().toList();
    }

    private static ParseOutcome invalid(List<FieldProblem> problems) {
        return new ParseOutcome.Invalid(ErrorDocument.invalidRequest(problems));
    }
}
