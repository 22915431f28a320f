package dev.proofline.launcher;

import dev.proofline.query.http.RouteGroup;
import dev.proofline.schemas.RegistryStore;
import dev.proofline.schemas.SchemaRegistryException;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Confluent Schema Registry endpoints Kafka clients use, served from {@link RegistryStore}:
 * subjects and versions, schemas by id, config, and compatibility checks. Only Avro.
 */
final class RegistryRoutes implements RouteGroup {
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Confluent's compatibility levels: only {@link RegistryStore#COMPATIBILITY} is checked here. */
    private static final java.util.Set<String> LEVELS = java.util.Set.of(
            "NONE", "BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD", "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE");

    private static final java.util.regex.Pattern ID_DIGITS = java.util.regex.Pattern.compile("[0-9]{1,10}");
    private final RegistryStore store;
    /**
     * Subjects a client set the level of (to the one level there is): kafkajs sets it before it
     * registers. Kept in memory only, since it changes nothing: every subject is checked the same way.
     */
    private final java.util.Set<String> configured = java.util.concurrent.ConcurrentHashMap.newKeySet();

    RegistryRoutes(RegistryStore store) {
        this.store = store;
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.routes.get("/subjects", ctx -> {
            ArrayNode subjects = JSON.createArrayNode();
            store.subjects().forEach(subjects::add);
            send(ctx, 200, subjects);
        });
        cfg.routes.get("/subjects/{subject}/versions", ctx -> {
            ArrayNode versions = JSON.createArrayNode();
            store.versions(ctx.pathParam("subject")).forEach(versions::add);
            send(ctx, 200, versions);
        });
        cfg.routes.post("/subjects/{subject}/versions", ctx -> {
            RegistryStore.Version v = store.register(ctx.pathParam("subject"), schemaOf(ctx));
            send(ctx, 200, JSON.createObjectNode().put("id", v.id()));
        });
        cfg.routes.post("/subjects/{subject}", ctx -> {
            String subject = ctx.pathParam("subject");
            String schema = RegistryStore.canonical(schemaOf(ctx)); // 42201 when it is no Avro schema
            for (int version : store.versions(subject)) {
                RegistryStore.Version v = store.version(subject, Integer.toString(version));
                if (v.schema().equals(schema)) {
                    send(ctx, 200, version(v));
                    return;
                }
            }
            throw new SchemaRegistryException(40403, "Schema not found");
        });
        cfg.routes.get("/subjects/{subject}/versions/{version}/referencedby", ctx -> {
            store.version(ctx.pathParam("subject"), ctx.pathParam("version")); // 40401 / 40402 / 42202
            send(ctx, 200, JSON.createArrayNode()); // Avro schemas here never reference others
        });
        cfg.routes.get(
                "/subjects/{subject}/versions/{version}",
                ctx -> send(ctx, 200, version(store.version(ctx.pathParam("subject"), ctx.pathParam("version")))));
        cfg.routes.get(
                "/subjects/{subject}/versions/{version}/schema",
                ctx -> send(
                        ctx,
                        200,
                        JSON.readTree(store.version(ctx.pathParam("subject"), ctx.pathParam("version"))
                                .schema())));
        cfg.routes.get(
                "/schemas/ids/{id}",
                ctx -> send(ctx, 200, JSON.createObjectNode().put("schema", store.schemaText(id(ctx)))));
        cfg.routes.get("/schemas/ids/{id}/schema", ctx -> send(ctx, 200, JSON.readTree(store.schemaText(id(ctx)))));
        cfg.routes.get("/schemas/ids/{id}/subjects", ctx -> {
            ArrayNode subjects = JSON.createArrayNode();
            store.versionsWithId(id(ctx)).stream()
                    .map(RegistryStore.Version::subject)
                    .distinct()
                    .forEach(subjects::add);
            send(ctx, 200, subjects);
        });
        cfg.routes.get("/schemas/ids/{id}/versions", ctx -> {
            ArrayNode versions = JSON.createArrayNode();
            store.versionsWithId(id(ctx))
                    .forEach(v ->
                            versions.addObject().put("subject", v.subject()).put("version", v.version()));
            send(ctx, 200, versions);
        });
        cfg.routes.get(
                "/schemas/types", ctx -> send(ctx, 200, JSON.createArrayNode().add("AVRO")));
        // Registering is open to operators (docs/access.md), so the registry reads and writes.
        cfg.routes.get("/mode", ctx -> send(ctx, 200, JSON.createObjectNode().put("mode", "READWRITE")));
        cfg.routes.get(
                "/mode/{subject}", ctx -> send(ctx, 200, JSON.createObjectNode().put("mode", "READWRITE")));
        cfg.routes.get(
                "/config",
                ctx -> send(ctx, 200, JSON.createObjectNode().put("compatibilityLevel", RegistryStore.COMPATIBILITY)));
        // A subject with no level set has none of its own: as Confluent's registry, 40408 unless the
        // global one is asked for.
        cfg.routes.get("/config/{subject}", ctx -> {
            if (!configured.contains(ctx.pathParam("subject"))
                    && !"true".equalsIgnoreCase(ctx.queryParam("defaultToGlobal"))) {
                throw new SchemaRegistryException(
                        40408,
                        "Subject '" + ctx.pathParam("subject") + "' does not have subject-level compatibility"
                                + " configured");
            }
            send(ctx, 200, JSON.createObjectNode().put("compatibilityLevel", RegistryStore.COMPATIBILITY));
        });
        cfg.routes.put("/config", ctx -> send(ctx, 200, levelSet(ctx)));
        cfg.routes.put("/config/{subject}", ctx -> {
            ObjectNode set = levelSet(ctx);
            configured.add(ctx.pathParam("subject"));
            send(ctx, 200, set);
        });
        cfg.routes.post(
                "/compatibility/subjects/{subject}/versions/{version}",
                ctx -> send(
                        ctx,
                        200,
                        JSON.createObjectNode()
                                .put(
                                        "is_compatible",
                                        store.isCompatible(
                                                ctx.pathParam("subject"), ctx.pathParam("version"), schemaOf(ctx)))));
        cfg.routes.exception(
                SchemaRegistryException.class,
                (e, ctx) -> send(
                        ctx,
                        e.httpStatus(),
                        JSON.createObjectNode().put("error_code", e.errorCode()).put("message", e.getMessage())));
    }

    private static ObjectNode version(RegistryStore.Version v) {
        return JSON.createObjectNode()
                .put("subject", v.subject())
                .put("version", v.version())
                .put("id", v.id())
                .put("schema", v.schema());
    }

    /**
     * Confluent's answer to setting a compatibility level, {@code {"compatibility": "BACKWARD"}},
     * when the level asked for is the one this registry checks; any other is 42203, saying so.
     */
    private static ObjectNode levelSet(Context ctx) {
        String level;
        try {
            level = JSON.readTree(ctx.body()).path("compatibility").asString("");
        } catch (RuntimeException notJson) {
            level = "";
        }
        level = level.toUpperCase(java.util.Locale.ROOT);
        if (!LEVELS.contains(level)) {
            throw new SchemaRegistryException(
                    42203,
                    "Invalid compatibility level. Send {\"compatibility\": \"" + RegistryStore.COMPATIBILITY
                            + "\"}: the one level this registry checks");
        }
        if (!level.equals(RegistryStore.COMPATIBILITY)) {
            throw new SchemaRegistryException(
                    42203,
                    "Invalid compatibility level. This registry checks " + RegistryStore.COMPATIBILITY
                            + " for every subject; no other level can be set");
        }
        return JSON.createObjectNode().put("compatibility", level);
    }

    private static String schemaOf(Context ctx) {
        JsonNode body;
        try {
            body = JSON.readTree(ctx.body());
        } catch (RuntimeException e) {
            throw new SchemaRegistryException(42201, "Invalid schema: the body is not JSON");
        }
        String type = body.path("schemaType").asString("AVRO");
        if (!type.equals("AVRO")) {
            throw new SchemaRegistryException(42201, "Only AVRO schemas are supported by the embedded registry");
        }
        if (!body.path("schema").isString()) {
            throw new SchemaRegistryException(42201, "Invalid schema: the body needs a 'schema' string");
        }
        JsonNode references = body.path("references");
        if (!references.isMissingNode() && !references.isNull() && !(references.isArray() && references.isEmpty())) {
            // Taken and ignored, a schema would be registered without what it names.
            throw new SchemaRegistryException(
                    42201,
                    "Invalid schema: this registry takes no schema references; send 'references' empty or not at all");
        }
        return body.get("schema").asString();
    }

    /**
     * The id in the path: ASCII digits only (Java's own parsing also takes other scripts' digits and a
     * sign). Anything else names no schema, and is not repeated in the answer.
     */
    private static int id(Context ctx) {
        String id = ctx.pathParam("id");
        if (!ID_DIGITS.matcher(id).matches()) {
            throw new SchemaRegistryException(40403, "Schema not found");
        }
        try {
            return Integer.parseInt(id);
        } catch (NumberFormatException pastTheLargestId) {
            throw new SchemaRegistryException(40403, "Schema not found");
        }
    }

    private static void send(Context ctx, int status, JsonNode body) {
        // Bytes, not a String: Jetty would encode text of a media type it does not know as Latin-1.
        ctx.status(status).contentType(CONTENT_TYPE).result(body.toString().getBytes(StandardCharsets.UTF_8));
    }
}
