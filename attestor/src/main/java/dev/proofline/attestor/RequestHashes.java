package dev.proofline.attestor;

import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The four hashes of a verification request ({@code docs/hashes.md}), each lowercase hex SHA-256 over the
 * RFC 8785 form of:
 * <ul>
 *   <li>{@code output_hash}: {@code submitted_output};</li>
 *   <li>{@code schema_hash}: {@code expected_schema};</li>
 *   <li>{@code rules_hash}: {@code {"bounds": <as sent or null>, "rules": <as sent or null>}};</li>
 *   <li>{@code request_hash}: the {@link CanonicalRequest} with every default filled in.</li>
 * </ul>
 */
public record RequestHashes(String outputHash, String schemaHash, String rulesHash, String requestHash) {

    public static final List<String> NAMES = List.of("output_hash", "schema_hash", "rules_hash", "request_hash");

    /**
     * Hashes a request as the caller sent it; the request must already be valid. A value with no
     * canonical form throws a {@link CanonicalJsonException} whose path names the request field
     * ({@code submitted_output.items[2]}).
     *
     * <p>The output and schema are canonicalized once: RFC 8785 is compositional (an object's form is
     * its sorted keys with their values' forms), so the canonical request is assembled from them.
     */
    public static RequestHashes of(JsonNode request) {
        return hash(request, null).hashes();
    }

    /** The hashes, and the canonical form of {@code expected_schema} they were taken over. */
    public record Hashed(RequestHashes hashes, CanonicalForm schema) {}

    /**
     * As {@link #of}, reusing the canonical form of a schema seen before ({@code null}: work it out):
     * RFC 8785 is a function of the value, so the same schema has the same form and hash. The form
     * is returned either way, for the caller to keep.
     */
    public static Hashed hash(JsonNode request, CanonicalForm knownSchema) {
        CanonicalWriter output = canonical(request.path("submitted_output"), "submitted_output", 1024);
        CanonicalForm schema = knownSchema != null
                ? knownSchema
                : CanonicalForm.takenFrom(canonical(request.path("expected_schema"), "expected_schema", 1024));
        CanonicalWriter rules = canonical(rulesDocument(request), "rules", 256);
        canonical(request.path("task_id"), "task_id", 64); // name the field if an id has no canonical form
        canonical(request.path("agent_id"), "agent_id", 64);
        CanonicalWriter canonicalRequest = CanonicalRequest.canonical(request, schema, output);
        RequestHashes hashes = new RequestHashes(
                output.sha256Hex(), schema.sha256Hex(), rules.sha256Hex(), canonicalRequest.sha256Hex());
        return new Hashed(hashes, schema);
    }

    private static CanonicalWriter canonical(JsonNode value, String field, int expectedSize) {
        try {
            return new CanonicalWriter(expectedSize).value(value);
        } catch (CanonicalJsonException e) {
            String where = field.equals("rules")
                    ? e.path().replaceFirst("^\\$\\.", "")
                    : field + e.path().substring(1);
            throw new CanonicalJsonException(where, e.reason());
        }
    }

    public String byName(String name) {
        return switch (name) {
            case "output_hash" -> outputHash;
            case "schema_hash" -> schemaHash;
            case "rules_hash" -> rulesHash;
            case "request_hash" -> requestHash;
            default -> throw new IllegalArgumentException("no hash named " + name);
        };
    }

    static ObjectNode rulesDocument(JsonNode request) {
        ObjectNode rules = StrictJson.NODES.objectNode();
        rules.set("bounds", orNull(request.get("bounds")));
        rules.set("rules", orNull(request.get("rules")));
        return rules;
    }

    static JsonNode orNull(JsonNode node) {
        return node == null ? StrictJson.NODES.nullNode() : node;
    }
}
