package dev.proofline.attestor;

import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The four hashes of a verification request (SPEC section 3), each lowercase hex SHA-256 over the
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

    /** Hashes a request as the caller sent it; the request must already be valid. */
    public static RequestHashes of(JsonNode request) {
        return new RequestHashes(
                Sha256.ofCanonical(request.path("submitted_output")),
                Sha256.ofCanonical(request.path("expected_schema")),
                Sha256.ofCanonical(rulesDocument(request)),
                Sha256.ofCanonical(CanonicalRequest.of(request)));
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
