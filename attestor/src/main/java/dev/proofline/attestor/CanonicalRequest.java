package dev.proofline.attestor;

import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The object {@code request_hash} is computed over: exactly the eight request keys, every default
 * filled in, so that two requests that mean the same thing hash the same ({@code docs/hashes.md}).
 * {@code detail} is left out: it shapes the answer, not the verification.
 */
public final class CanonicalRequest {
    /** Defaults of a rule's optional fields, in the reference service's words. */
    public static final double DEFAULT_TOLERANCE = 1e-9;

    private static final JsonNodeFactory NODES = StrictJson.NODES;
    private static final Map<String, JsonNode> RULE_DEFAULTS = Map.of(
            "equals_field", NODES.nullNode(),
            "equals", NODES.nullNode(),
            "other_field", NODES.nullNode(),
            "value", NODES.nullNode(),
            "in_field", NODES.nullNode(),
            "values", NODES.nullNode(),
            "tolerance", NODES.numberNode(DEFAULT_TOLERANCE),
            "if_present", NODES.booleanNode(false));
    private static final Map<String, JsonNode> BOUND_DEFAULTS = Map.of(
            "min", NODES.nullNode(),
            "max", NODES.nullNode(),
            "if_present", NODES.booleanNode(false));

    private CanonicalRequest() {}

    public static ObjectNode of(JsonNode request) {
        ObjectNode canonical = NODES.objectNode();
        canonical.set("task_id", request.get("task_id"));
        canonical.set("agent_id", RequestHashes.orNull(request.get("agent_id")));
        canonical.set("expected_schema", request.get("expected_schema"));
        canonical.set("submitted_output", request.get("submitted_output"));
        canonical.set("strict_content_check", booleanOrFalse(request.get("strict_content_check")));
        canonical.set("bounds", bounds(request.get("bounds")));
        canonical.set("rules", rules(request.get("rules")));
        canonical.set("enforce_rules", booleanOrFalse(request.get("enforce_rules")));
        return canonical;
    }

    /**
     * The canonical form of {@link #of}, assembled around the already-canonical schema and output so
     * neither is walked twice. The eight keys are fixed, so their RFC 8785 order is too.
     */
    static CanonicalWriter canonical(JsonNode request, CanonicalForm schema, CanonicalWriter output) {
        return new CanonicalWriter(schema.size() + output.size() + 512)
                .ascii("{\"agent_id\":")
                .value(RequestHashes.orNull(request.get("agent_id")))
                .ascii(",\"bounds\":")
                .value(bounds(request.get("bounds")))
                .ascii(",\"enforce_rules\":")
                .value(booleanOrFalse(request.get("enforce_rules")))
                .ascii(",\"expected_schema\":")
                .canonical(schema)
                .ascii(",\"rules\":")
                .value(rules(request.get("rules")))
                .ascii(",\"strict_content_check\":")
                .value(booleanOrFalse(request.get("strict_content_check")))
                .ascii(",\"submitted_output\":")
                .canonical(output)
                .ascii(",\"task_id\":")
                .value(request.get("task_id"))
                .ascii("}");
    }

    private static JsonNode rules(JsonNode rules) {
        if (rules == null || rules.isNull()) {
            return NODES.nullNode();
        }
        ArrayNode filled = NODES.arrayNode(rules.size());
        for (JsonNode rule : rules) {
            filled.add(withDefaults(rule, RULE_DEFAULTS));
        }
        return filled;
    }

    private static JsonNode bounds(JsonNode bounds) {
        if (bounds == null || bounds.isNull()) {
            return NODES.nullNode();
        }
        ObjectNode filled = NODES.objectNode();
        for (Map.Entry<String, JsonNode> bound : bounds.properties()) {
            filled.set(bound.getKey(), withDefaults(bound.getValue(), BOUND_DEFAULTS));
        }
        return filled;
    }

    private static ObjectNode withDefaults(JsonNode sent, Map<String, JsonNode> defaults) {
        ObjectNode filled = NODES.objectNode();
        defaults.forEach(filled::set);
        for (Map.Entry<String, JsonNode> field : sent.properties()) {
            filled.set(field.getKey(), field.getValue());
        }
        return filled;
    }

    private static JsonNode booleanOrFalse(JsonNode node) {
        return node == null || node.isNull() ? NODES.booleanNode(false) : node;
    }
}
