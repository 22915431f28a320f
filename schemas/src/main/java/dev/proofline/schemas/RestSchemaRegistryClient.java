package dev.proofline.schemas;

import dev.proofline.contract.HttpUrls;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client of the Confluent Schema Registry REST API: {@code POST /subjects/{s}/versions} to
 * register (or {@code POST /subjects/{s}} to look up where writes are refused) and
 * {@code GET /schemas/ids/{id}} to fetch, all cached. Works against Confluent's
 * registry and against Proofline's embedded one.
 */
public final class RestSchemaRegistryClient implements SchemaRegistryClient {
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String baseUrl;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<String, Integer> registered = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> byId = new ConcurrentHashMap<>();

    /**
     * @throws IllegalArgumentException when {@code baseUrl} is not an http:// or https:// URL with a
     *     host: said at once, not as a failure of every lookup later
     */
    public RestSchemaRegistryClient(String baseUrl) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        if (HttpUrls.parse(this.baseUrl).isEmpty()) {
            // The URL is not repeated in the message: it may carry credentials, and messages reach logs.
            throw new IllegalArgumentException("the schema registry URL is not an http:// or https:// URL with a host");
        }
    }

    /**
     * The schema's id under {@code subject}, registering it if need be. A registry that refuses
     * writes to this caller (an embedded one on another machine takes them only from operators and
     * its own machine; Confluent's in read-only mode or behind ACLs) is asked to look the schema up
     * instead, which anyone may: a schema registered already is all a reader or writer needs.
     */
    @Override
    public int register(String subject, Schema schema) {
        return registered.computeIfAbsent(subject + "\n" + schema, key -> {
            String body =
                    JSON.createObjectNode().put("schema", schema.toString()).toString();
            JsonNode answer;
            try {
                answer = call(HttpRequest.newBuilder(uri("/subjects/" + encode(subject) + "/versions"))
                        .POST(HttpRequest.BodyPublishers.ofString(body)));
            } catch (SchemaRegistryException refused) {
                if (!refusesWrites(refused)) {
                    throw refused;
                }
                answer = lookUp(subject, body, refused);
            }
            int id = answer.get("id").asInt();
            byId.putIfAbsent(id, schema);
            return id;
        });
    }

    /** 401 or 403 (Proofline's access rules, Confluent's ACLs: 40301), or Confluent's read-only mode (42205). */
    private static boolean refusesWrites(SchemaRegistryException e) {
        int status = e.errorCode() >= 10000 ? e.errorCode() / 100 : e.errorCode();
        return status == 401 || status == 403 || e.errorCode() == 42205;
    }

    private JsonNode lookUp(String subject, String body, SchemaRegistryException refused) {
        try {
            return call(HttpRequest.newBuilder(uri("/subjects/" + encode(subject)))
                    .POST(HttpRequest.BodyPublishers.ofString(body)));
        } catch (SchemaRegistryException e) {
            if (e.errorCode() == 40401 || e.errorCode() == 40403) {
                throw new SchemaRegistryException(
                        refused.errorCode(),
                        refused.getMessage() + "; the schema is not registered under " + subject + " yet, and only"
                                + " a caller the registry takes writes from can register it (an operator key, or"
                                + " the registry's own machine)");
            }
            throw e;
        }
    }

    @Override
    public Schema schemaById(int id) {
        return byId.computeIfAbsent(id, this::fetch);
    }

    private Schema fetch(int id) {
        JsonNode answer = call(HttpRequest.newBuilder(uri("/schemas/ids/" + id)).GET());
        JsonNode schema = answer.get("schema");
        if (schema == null || !schema.isString()) {
            // Not a registry's answer (a wrong URL that answers JSON): nothing is known about the id.
            throw new SchemaRegistryException(50003, "the answer for schema id " + id + " holds no schema");
        }
        try {
            return new Schema.Parser().parse(schema.asString());
        } catch (RuntimeException notAvro) {
            // A registry may hold JSON Schema or Protobuf schemas too: no Avro schema has this id.
            throw new SchemaRegistryException(40403, "schema id " + id + " is not an Avro schema");
        }
    }

    private JsonNode call(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(
                    request.header("Content-Type", CONTENT_TYPE)
                            .header("Accept", CONTENT_TYPE)
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode body;
            try {
                body = JSON.readTree(response.body());
            } catch (tools.jackson.core.JacksonException notJson) {
                // A proxy's error page, say: the registry did not answer, so nothing is known yet.
                throw new SchemaRegistryException(
                        50003,
                        "schema registry at " + baseUrl + " answered " + response.statusCode() + " without JSON");
            }
            if (response.statusCode() / 100 != 2) {
                throw new SchemaRegistryException(
                        body.path("error_code").asInt(response.statusCode() * 100),
                        "schema registry answered " + response.statusCode() + ": "
                                + body.path("message").asString(""));
            }
            return body;
        } catch (IOException e) {
            throw new SchemaRegistryException(
                    50003, "schema registry at " + baseUrl + " unreachable: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryException(50003, "interrupted calling the schema registry");
        }
    }

    private URI uri(String path) {
        return URI.create(baseUrl + path);
    }

    private static String encode(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8);
    }
}
