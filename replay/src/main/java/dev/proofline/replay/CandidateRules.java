package dev.proofline.replay;

import dev.proofline.attestor.CanonicalJsonException;
import dev.proofline.attestor.RequestHashes;
import dev.proofline.attestor.StrictJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a replay puts in place of every request's own rules and, optionally, its schema. The rules
 * file holds what {@code rules_hash} covers ({@code docs/hashes.md}): an object {@code {"rules":
 * [...], "bounds": {...}}} (a missing member is null), or a bare array of rules (no bounds). The
 * replacement is whole: a request's own rules are not merged with the candidate's.
 */
public final class CandidateRules {
    private static final Set<String> RULES_FILE_FIELDS = Set.of("rules", "bounds");

    private final Optional<JsonNode> rules;
    private final Optional<JsonNode> bounds;
    private final Optional<JsonNode> schema;

    private CandidateRules(Optional<JsonNode> rules, Optional<JsonNode> bounds, Optional<JsonNode> schema) {
        this.rules = rules;
        this.bounds = bounds;
        this.schema = schema;
    }

    /** Replaces the rules and bounds (rules file) and the schema (schema file); either may be absent. */
    public static CandidateRules read(Optional<Path> rulesFile, Optional<Path> schemaFile) throws IOException {
        if (rulesFile.isEmpty() && schemaFile.isEmpty()) {
            throw new IllegalArgumentException("a replay needs --rules FILE, --schema FILE, or both");
        }
        Optional<JsonNode> rules = Optional.empty();
        Optional<JsonNode> bounds = Optional.empty();
        if (rulesFile.isPresent()) {
            JsonNode file = json(rulesFile.get());
            if (file.isArray()) {
                rules = Optional.of(file);
                bounds = Optional.of(NullNode.getInstance());
            } else if (file.isObject() && RULES_FILE_FIELDS.containsAll(file.propertyNames())) {
                rules = Optional.of(file.path("rules").isMissingNode() ? NullNode.getInstance() : file.get("rules"));
                bounds = Optional.of(file.path("bounds").isMissingNode() ? NullNode.getInstance() : file.get("bounds"));
            } else {
                throw new IllegalArgumentException(rulesFile.get()
                        + " is neither an array of rules nor an object {\"rules\": [...], \"bounds\": {...}}");
            }
        }
        return new CandidateRules(
                rules, bounds, schemaFile.isPresent() ? Optional.of(json(schemaFile.get())) : Optional.empty());
    }

    /** A copy of the request with the candidate's parts in place of its own. */
    public ObjectNode apply(ObjectNode request) {
        ObjectNode candidate = request.deepCopy();
        rules.ifPresent(r -> candidate.set("rules", r));
        bounds.ifPresent(b -> candidate.set("bounds", b));
        schema.ifPresent(s -> candidate.set("expected_schema", s));
        return candidate;
    }

    /**
     * A minimal request carrying the candidate: the engine's parser judges it before any record is
     * read, so a mistake in the rules file is one message, not a dead letter per request.
     */
    public ObjectNode probe() {
        ObjectNode probe = StrictJson.NODES.objectNode();
        probe.put("task_id", "replay-probe");
        probe.set("expected_schema", schema.orElse(StrictJson.NODES.booleanNode(true)));
        probe.set("submitted_output", StrictJson.NODES.objectNode());
        return apply(probe);
    }

    /** {@code rules_hash} of the candidate rules, when it replaces them. */
    public Optional<String> rulesHash() {
        return rules.map(r -> RequestHashes.of(probe()).rulesHash());
    }

    /** {@code schema_hash} of the candidate schema, when it replaces the requests' own. */
    public Optional<String> schemaHash() {
        return schema.map(s -> RequestHashes.of(probe()).schemaHash());
    }

    private static JsonNode json(Path file) throws IOException {
        try {
            return StrictJson.parse(file);
        } catch (CanonicalJsonException e) {
            throw new IllegalArgumentException(file + " is not JSON: " + e.getMessage());
        }
    }
}
