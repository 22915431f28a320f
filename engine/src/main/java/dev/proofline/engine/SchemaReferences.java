package dev.proofline.engine;

import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.FieldProblem;
import dev.proofline.contract.ShortText;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Reads a caller's schema as a graph before anything evaluates it, and refuses the three shapes
 * that would let one request stop a stream thread or reach outside the schema:
 *
 * <ul>
 *   <li>a reference to anything not defined inside the schema (a URL, a file, an unknown
 *       {@code $id}), wherever it stands, {@code contentSchema} and unused {@code $defs} included,
 *       except the bundled meta-schemas of the standard dialects ({@link StandardMetaSchemas});
 *   <li>a cycle of subschemas applied to the same instance value ({@code "$ref": "#"} at the root,
 *       two {@code $defs} referring to each other, an {@code anyOf} containing itself): evaluating it
 *       never ends. A cycle that descends into the instance (a tree whose {@code children} items
 *       {@code $ref} the root) ends with the instance and stays allowed;
 *   <li>a fan-out that applies more than {@link #MAX_EXPANSION} subschemas to one instance value
 *       (forty {@code $defs}, each {@code allOf} two references to the next, is 2^40).
 * </ul>
 *
 * <p>Edges that stay on the same instance value are {@code $ref}, {@code $dynamicRef},
 * {@code $recursiveRef}, {@code allOf}, {@code anyOf}, {@code oneOf}, {@code not}, {@code if},
 * {@code then}, {@code else}, {@code dependentSchemas} and draft-07 schema {@code dependencies}.
 * A {@code $dynamicRef} is taken to reach every {@code $dynamicAnchor} of its name (the dynamic
 * scope can pick any of them), so the analysis never under-counts.
 */
final class SchemaReferences {
    /** Most subschemas applied to one instance value, counting every path through the graph. */
    static final int MAX_EXPANSION = 1_000;

    private static final int MAX_LOCATION = 200;
    private static final String ROOT_BASE = "urn:proofline:expected-schema";
    private static final Set<String> SAME_VALUE_ONE = Set.of("not", "if", "then", "else");
    private static final Set<String> SAME_VALUE_LIST = Set.of("allOf", "anyOf", "oneOf");
    private static final Set<String> SAME_VALUE_MAP = Set.of("dependentSchemas", "dependencies");
    private static final Set<String> DESCENDING_ONE = Set.of(
            "items",
            "additionalItems",
            "additionalProperties",
            "contains",
            "propertyNames",
            "unevaluatedItems",
            "unevaluatedProperties");
    private static final Set<String> DESCENDING_LIST = Set.of("prefixItems", "items");
    private static final Set<String> DESCENDING_MAP = Set.of("properties", "patternProperties");
    /** Hold schemas that are never applied where they stand, but may be referred to, or hide a URL. */
    private static final Set<String> NOT_APPLIED_ONE = Set.of("contentSchema");

    private static final Set<String> NOT_APPLIED_MAP = Set.of("$defs", "definitions");

    /** One subschema object: where it is, the resource it belongs to, and what it applies to the same value. */
    private static final class Node {
        final JsonNode schema;
        final String location;
        final String base;
        final List<JsonNode> sameValue = new ArrayList<>();

        Node(JsonNode schema, String location, String base) {
            this.schema = schema;
            this.location = location;
            this.base = base;
        }
    }

    private final boolean draft4;
    private final Map<JsonNode, Node> nodes = new IdentityHashMap<>();
    private final Map<String, JsonNode> resources = new HashMap<>();
    private final Map<String, JsonNode> anchors = new HashMap<>(); // base + "#" + name
    private final Map<String, List<JsonNode>> dynamicAnchors = new HashMap<>();
    private final List<JsonNode> recursiveAnchors = new ArrayList<>();
    private final List<FieldProblem> problems = new ArrayList<>();

    private SchemaReferences(boolean draft4) {
        this.draft4 = draft4;
    }

    /** The problems that make this schema unsafe to evaluate; empty when it is safe. */
    static List<FieldProblem> check(JsonNode schema, boolean draft4) {
        SchemaReferences graph = new SchemaReferences(draft4);
        graph.index(schema, "expected_schema", baseOf(schema, ROOT_BASE, draft4, true));
        if (graph.problems.isEmpty()) {
            graph.link();
        }
        if (graph.problems.isEmpty()) {
            graph.checkCyclesAndExpansion(schema);
        }
        return graph.problems;
    }

    /** First pass: every subschema, its resource base, every resource and anchor. */
    private void index(JsonNode schema, String location, String base) {
        if (!schema.isObject() || nodes.containsKey(schema)) {
            return;
        }
        nodes.put(schema, new Node(schema, location, base));
        resources.putIfAbsent(base, schema);
        JsonNode anchor = schema.get("$anchor");
        if (anchor != null && anchor.isString()) {
            anchors.putIfAbsent(base + "#" + anchor.stringValue(), schema);
        }
        JsonNode dynamic = schema.get("$dynamicAnchor");
        if (dynamic != null && dynamic.isString()) {
            anchors.putIfAbsent(base + "#" + dynamic.stringValue(), schema);
            dynamicAnchors
                    .computeIfAbsent(dynamic.stringValue(), n -> new ArrayList<>())
                    .add(schema);
        }
        JsonNode recursive = schema.get("$recursiveAnchor");
        if (recursive != null && recursive.isBoolean() && recursive.booleanValue()) {
            recursiveAnchors.add(schema);
        }
        JsonNode legacyId = schema.get(draft4 ? "id" : "$id");
        if (legacyId != null && legacyId.isString() && legacyId.stringValue().startsWith("#")) {
            anchors.putIfAbsent(base + legacyId.stringValue(), schema); // draft-06/07 plain-name fragment
        }
        forEachSubschema(schema, location, (child, childLocation) -> {
            if (child.isObject()) {
                index(child, childLocation, baseOf(child, base, draft4, false));
            }
        });
    }

    /** Second pass: resolve every reference, and record what each node applies to the same value. */
    private void link() {
        for (Node node : List.copyOf(nodes.values())) {
            JsonNode schema = node.schema;
            for (String keyword : List.of("$ref", "$dynamicRef", "$recursiveRef")) {
                JsonNode reference = schema.get(keyword);
                if (reference == null) {
                    continue;
                }
                String at = child(node.location, "." + keyword);
                if (!reference.isString()) {
                    continue; // the meta-schema reports it
                }
                JsonNode target = resolve(reference.stringValue(), node.base, at);
                if (target == null) {
                    continue;
                }
                node.sameValue.add(target);
                if (keyword.equals("$dynamicRef") && reference.stringValue().startsWith("#")) {
                    String name = reference.stringValue().substring(1);
                    node.sameValue.addAll(dynamicAnchors.getOrDefault(name, List.of()));
                }
                if (keyword.equals("$recursiveRef")) {
                    node.sameValue.addAll(recursiveAnchors);
                }
            }
            schema.properties().forEach(entry -> {
                String keyword = entry.getKey();
                JsonNode value = entry.getValue();
                if (SAME_VALUE_ONE.contains(keyword) && value.isObject()) {
                    node.sameValue.add(value);
                } else if (SAME_VALUE_LIST.contains(keyword) && value.isArray()) {
                    value.forEach(element -> {
                        if (element.isObject()) {
                            node.sameValue.add(element);
                        }
                    });
                } else if (SAME_VALUE_MAP.contains(keyword) && value.isObject()) {
                    value.properties().forEach(e -> {
                        if (e.getValue().isObject()) {
                            node.sameValue.add(e.getValue());
                        }
                    });
                }
            });
        }
    }

    /** The schema a reference points to, or null (and a problem) when it points outside or nowhere. */
    private JsonNode resolve(String reference, String base, String at) {
        String target;
        try {
            target = reference.isEmpty() || reference.startsWith("#")
                    ? base + (reference.isEmpty() ? "#" : reference)
                    : new URI(base).resolve(new URI(reference)).toString();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return refuse(at, "is not a valid URI reference", "Write a reference such as '#/$defs/name'.");
        }
        int hash = target.indexOf('#');
        String resource = hash < 0 ? target : target.substring(0, hash);
        String fragment = hash < 0 ? "" : target.substring(hash + 1);
        JsonNode root = resources.get(resource);
        if (root == null && StandardMetaSchemas.contains(target)) {
            // A bundled meta-schema: fixed, never fetched, and it only descends into the instance.
            return null;
        }
        if (root == null) {
            return refuse(
                    at,
                    "refers to a schema outside this one; nothing is ever loaded from a URL or a file",
                    "Put what it refers to under $defs and refer to it as '#/$defs/name'.");
        }
        JsonNode found = fragment.isEmpty()
                ? root
                : fragment.startsWith("/") ? pointer(root, fragment) : anchors.get(resource + "#" + fragment);
        if (found == null) {
            return refuse(
                    at,
                    "points nowhere inside the schema",
                    "Point it at a location inside the schema, such as '#/$defs/name'.");
        }
        return found.isObject() ? found : null; // a boolean schema applies nothing further
    }

    private static JsonNode pointer(JsonNode root, String fragment) {
        JsonNode at = root;
        for (String raw : fragment.substring(1).split("/", -1)) {
            String token;
            try {
                token = URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8)
                        .replace("~1", "/")
                        .replace("~0", "~");
            } catch (IllegalArgumentException e) {
                return null;
            }
            if (at.isArray()) {
                try {
                    at = at.get(Integer.parseInt(token));
                } catch (NumberFormatException e) {
                    return null;
                }
            } else {
                at = at.get(token);
            }
            if (at == null) {
                return null;
            }
        }
        return at;
    }

    /**
     * Third pass: a cycle of same-value edges never ends; a fan-out above the bound takes too long.
     * The count saturates just above the bound, so it never overflows.
     */
    private void checkCyclesAndExpansion(JsonNode root) {
        Map<JsonNode, Integer> expansion = new IdentityHashMap<>();
        Map<JsonNode, Boolean> onPath = new IdentityHashMap<>();
        for (Node node : nodes.values()) {
            if (!problems.isEmpty()) {
                return;
            }
            expand(node.schema, expansion, onPath);
        }
    }

    private int expand(JsonNode schema, Map<JsonNode, Integer> expansion, Map<JsonNode, Boolean> onPath) {
        Integer known = expansion.get(schema);
        if (known != null) {
            return known;
        }
        Node node = nodes.get(schema);
        if (node == null || !problems.isEmpty()) {
            return 1;
        }
        if (onPath.containsKey(schema)) {
            refuse(
                    node.location,
                    "applies itself to the same value again (a $ref or allOf/anyOf/oneOf cycle that never descends"
                            + " into the output), so checking it would never end",
                    "Break the cycle: a schema may refer back to itself only below properties or items.");
            return MAX_EXPANSION + 1;
        }
        onPath.put(schema, Boolean.TRUE);
        long total = 1;
        for (JsonNode next : node.sameValue) {
            total += expand(next, expansion, onPath);
            if (total > MAX_EXPANSION) {
                total = MAX_EXPANSION + 1;
                break;
            }
        }
        onPath.remove(schema);
        if (total > MAX_EXPANSION && problems.isEmpty()) {
            refuse(
                    node.location,
                    "applies more than " + MAX_EXPANSION
                            + " subschemas to one value through $ref and allOf/anyOf/oneOf",
                    "Simplify the schema: share definitions instead of combining references that multiply.");
        }
        expansion.put(schema, (int) total);
        return (int) total;
    }

    @FunctionalInterface
    private interface SubschemaVisitor {
        void visit(JsonNode child, String location);
    }

    /** Every place a subschema may stand, applied or not (so a URL hidden in $defs is still found). */
    private static void forEachSubschema(JsonNode schema, String location, SubschemaVisitor visitor) {
        schema.properties().forEach(entry -> {
            String keyword = entry.getKey();
            JsonNode value = entry.getValue();
            String at = child(location, "." + keyword);
            boolean one = SAME_VALUE_ONE.contains(keyword)
                    || DESCENDING_ONE.contains(keyword)
                    || NOT_APPLIED_ONE.contains(keyword);
            boolean list = SAME_VALUE_LIST.contains(keyword) || DESCENDING_LIST.contains(keyword);
            boolean map = SAME_VALUE_MAP.contains(keyword)
                    || DESCENDING_MAP.contains(keyword)
                    || NOT_APPLIED_MAP.contains(keyword);
            if (one && value.isObject()) {
                visitor.visit(value, at);
            } else if (list && value.isArray()) {
                for (int i = 0; i < value.size(); i++) {
                    visitor.visit(value.get(i), child(at, "[" + i + "]"));
                }
            } else if (map && value.isObject()) {
                value.properties().forEach(e -> visitor.visit(e.getValue(), child(at, "." + e.getKey())));
            }
        });
    }

    /** A location one step deeper, kept short: locations name caller's keys, which may be huge. */
    private static String child(String location, String step) {
        if (location.length() >= MAX_LOCATION) {
            return location;
        }
        String longer = location + step;
        return ShortText.atMost(longer, MAX_LOCATION);
    }

    /** The base URI of a subschema: its own {@code $id} resolved against its parent's base. */
    private static String baseOf(JsonNode schema, String parentBase, boolean draft4, boolean root) {
        JsonNode id = schema.get(draft4 ? "id" : "$id");
        if (id == null || !id.isString() || id.stringValue().startsWith("#")) {
            return parentBase;
        }
        try {
            String resolved =
                    new URI(parentBase).resolve(new URI(id.stringValue())).toString();
            int hash = resolved.indexOf('#');
            return hash < 0 ? resolved : resolved.substring(0, hash);
        } catch (URISyntaxException | IllegalArgumentException e) {
            return parentBase; // the meta-schema reports a malformed $id
        }
    }

    private JsonNode refuse(String location, String problem, String fix) {
        if (problems.size() < ErrorDocument.MAX_FIELDS) {
            problems.add(new FieldProblem(location, problem, fix));
        }
        return null;
    }
}
