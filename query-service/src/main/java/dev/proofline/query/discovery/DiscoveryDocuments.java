package dev.proofline.query.discovery;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.CanonicalJson;
import dev.proofline.attestor.CanonicalRequest;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.PublishedKey;
import dev.proofline.attestor.RequestHashes;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ErrorCode;
import dev.proofline.engine.EngineSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The discovery documents ({@code docs/http.md}) that describe this deployment to people and agents: the
 * agent-card (with every public key ever used and request-hash test vectors), the OpenAPI
 * description, the RFC 9727 API catalog, llms.txt and the JSON index of {@code GET /}.
 */
public final class DiscoveryDocuments {
    /** Where the live feed is served ({@code LiveReceipts} mounts it there). */
    public static final String LIVE_FEED_PATH = "/feed/receipts";

    public static final String ATTESTATION_EXTENSION = "urn:json-schema-verifier:extension:attestation:v1";
    private static final String[] VECTORS = {"request-hash-vector-1.json", "request-hash-vector-2.json"};

    private final EngineSettings settings;
    private final KeyRing keys;

    public DiscoveryDocuments(EngineSettings settings, KeyRing keys) {
        this.settings = settings;
        this.keys = keys;
    }

    private String url(String path) {
        return settings.publicBaseUrl() + path;
    }

    public ObjectNode agentCard() {
        ObjectNode card = StrictJson.NODES.objectNode();
        card.put("name", settings.serviceName());
        card.put(
                "description",
                "Verifies AI agents' structured JSON output against a JSON Schema and business rules "
                        + "and signs the verdict as an Ed25519 receipt over RFC 8785 canonical JSON, verifiable offline.");
        card.put("url", settings.publicBaseUrl());
        card.put("version", dev.proofline.engine.EngineSettings.VERIFIER_VERSION);
        card.put("mcp", url("/mcp"));
        card.putObject("provider").put("organization", "Proofline").put("url", settings.publicBaseUrl());
        card.putArray("defaultInputModes").add("application/json");
        card.putArray("defaultOutputModes").add("application/json");
        ArrayNode skills = card.putArray("skills");
        skills.addObject()
                .put("id", "verify_schema")
                .put("name", "Verify structured output")
                .put(
                        "description",
                        "Check submitted_output against expected_schema, rules and bounds; answer a signed receipt.")
                .put("endpoint", url("/verify/schema"));
        skills.addObject()
                .put("id", "get_verification_record")
                .put("name", "Trust score of an agent")
                .put("description", "The agent's signed trust score and the inputs it was computed from.")
                .put("endpoint", url("/score/{agent_id}"));
        ObjectNode extension = card.putObject("capabilities")
                .put("streaming", false)
                .putArray("extensions")
                .addObject();
        extension.put("uri", ATTESTATION_EXTENSION);
        extension.put("description", "Receipts and score answers are signed; verify them with these keys.");
        extension.put("required", false);
        ObjectNode params = extension.putObject("params");
        params.put("algorithm", PublishedKey.ED25519);
        params.put("canonicalization", "RFC 8785 (JCS)");
        params.put("hash_algorithm", "SHA-256");
        params.putObject("contexts")
                .put("verify", AttestationContext.VERIFY.id())
                .put("score", AttestationContext.SCORE.id());
        ArrayNode publicKeys = params.putArray("publicKeys");
        for (PublishedKey key : keys.publishedKeys()) {
            publicKeys
                    .addObject()
                    .put("keyVersion", key.keyVersion())
                    .put("algorithm", key.algorithm())
                    .put("publicKey", key.publicKey());
        }
        ArrayNode vectors = params.putArray("requestHashTestVectors");
        for (String name : VECTORS) {
            JsonNode request = resource(name);
            vectors.addObject()
                    .<ObjectNode>set("request", request)
                    .put("canonical_request", CanonicalJson.toCanonicalString(CanonicalRequest.of(request)))
                    .put("request_hash", RequestHashes.of(request).requestHash());
        }
        return card;
    }

    public ObjectNode openApi() {
        ObjectNode doc = StrictJson.NODES.objectNode();
        doc.put("openapi", "3.1.0");
        doc.putObject("info")
                .put("title", settings.serviceName())
                .put("version", EngineSettings.VERIFIER_VERSION)
                .put("description", "Verify AI agents' structured output; signed receipts and trust scores.");
        doc.putArray("servers").addObject().put("url", settings.publicBaseUrl());
        ObjectNode paths = doc.putObject("paths");
        ObjectNode verify = operation(
                "Verify a request and answer its signed receipt",
                "200",
                "The signed receipt",
                "413",
                "Over the size limit",
                "422",
                "Invalid request (fields name each problem)",
                "504",
                "Accepted, receipt not ready yet (receipt_pending)");
        verify.putObject("requestBody")
                .put("required", true)
                .putObject("content")
                .putObject("application/json")
                .putObject("schema")
                .put("type", "object")
                .putArray("required")
                .add("task_id")
                .add("expected_schema")
                .add("submitted_output");
        paths.putObject("/verify/schema").set("post", verify);
        paths.putObject("/verify/deliverable").set("post", verify.deepCopy());
        paths.putObject("/score/{agent_id}")
                .set(
                        "get",
                        withAgentParameter(operation(
                                "The agent's trust score, signed with the trust-score context",
                                "200",
                                "Signed score (or reason no_data)",
                                "400",
                                "Placeholder agent id",
                                "503",
                                "Not queryable during a rebalance")));
        paths.putObject("/reputation/{agent_id}")
                .set(
                        "get",
                        withAgentParameter(operation(
                                "The agent's plain pass/fail history",
                                "200",
                                "History",
                                "400",
                                "Placeholder agent id")));
        ObjectNode receipt = operation(
                "One signed receipt by its verification_id, exactly as signed",
                "200",
                "The signed receipt",
                "404",
                "No such receipt (yet): receipt_not_found, retryable",
                "503",
                "An instance cannot answer now");
        receipt.putArray("parameters")
                .addObject()
                .put("name", "verification_id")
                .put("in", "path")
                .put("required", true)
                .putObject("schema")
                .put("type", "string");
        paths.putObject("/receipts/{verification_id}").set("get", receipt);
        paths.putObject("/agents")
                .set(
                        "get",
                        operation(
                                "Leaderboard: every agent's score, pass rate, counts and last "
                                        + "verification, best first (query parameter limit, default 50)",
                                "200",
                                "Leaderboard",
                                "503",
                                "Not queryable during a rebalance"));
        paths.putObject("/agents/{agent_id}/receipts")
                .set(
                        "get",
                        withAgentParameter(operation(
                                "The agent's recent signed receipts, newest first",
                                "200",
                                "Receipts",
                                "503",
                                "Not queryable during a rebalance")));
        paths.putObject(LIVE_FEED_PATH)
                .set(
                        "get",
                        operation(
                                "Live feed of receipts (server-sent events, event name receipts)",
                                "200",
                                "text/event-stream"));
        paths.putObject("/.well-known/agent-card.json")
                .set("get", operation("The agent card with public keys", "200", "Agent card"));
        paths.putObject("/health")
                .set("get", operation("Broker and pipeline health", "200", "Healthy", "503", "Unhealthy"));
        paths.putObject("/llms.txt").set("get", operation("A plain-text guide for LLM agents", "200", "Text"));
        return doc;
    }

    private static ObjectNode operation(String summary, String... statusAndDescription) {
        ObjectNode op = StrictJson.NODES.objectNode().put("summary", summary);
        ObjectNode responses = op.putObject("responses");
        for (int i = 0; i < statusAndDescription.length; i += 2) {
            responses.putObject(statusAndDescription[i]).put("description", statusAndDescription[i + 1]);
        }
        return op;
    }

    private static ObjectNode withAgentParameter(ObjectNode op) {
        op.putArray("parameters")
                .addObject()
                .put("name", "agent_id")
                .put("in", "path")
                .put("required", true)
                .putObject("schema")
                .put("type", "string");
        return op;
    }

    /** RFC 9727: a linkset naming the API's description and documentation. */
    public ObjectNode apiCatalog() {
        ObjectNode catalog = StrictJson.NODES.objectNode();
        ObjectNode entry = catalog.putArray("linkset").addObject();
        entry.put("anchor", url("/"));
        entry.putArray("service-desc")
                .addObject()
                .put("href", url("/openapi.json"))
                .put("type", "application/openapi+json");
        entry.putArray("service-doc").addObject().put("href", url("/docs")).put("type", "text/html");
        entry.putArray("service-meta")
                .addObject()
                .put("href", url("/.well-known/agent-card.json"))
                .put("type", "application/json");
        return catalog;
    }

    public ObjectNode index() {
        ObjectNode index = StrictJson.NODES.objectNode();
        index.put("service", settings.serviceName());
        index.put("version", EngineSettings.VERIFIER_VERSION);
        ObjectNode links = index.putObject("links");
        links.put("verify", url("/verify/schema"));
        links.put("score", url("/score/{agent_id}"));
        links.put("reputation", url("/reputation/{agent_id}"));
        links.put("receipt", url("/receipts/{verification_id}"));
        links.put("agents", url("/agents"));
        links.put("dashboard", url("/dashboard"));
        links.put("live_feed", url(LIVE_FEED_PATH));
        links.put("agent_card", url("/.well-known/agent-card.json"));
        links.put("openapi", url("/openapi.json"));
        links.put("docs", url("/docs"));
        links.put("api_catalog", url("/.well-known/api-catalog"));
        links.put("llms_txt", url("/llms.txt"));
        links.put("health", url("/health"));
        links.put("mcp", url("/mcp"));
        return index;
    }

    public String llmsTxt(int maxRequestBytes) {
        StringBuilder text = new StringBuilder();
        text.append("# ").append(settings.serviceName()).append("\n\n");
        text.append("> Verifies an AI agent's structured JSON output against a JSON Schema and business rules, and "
                + "answers an Ed25519-signed receipt (RFC 8785 canonical JSON) that anyone can verify offline.\n\n");
        text.append("## Endpoints\n\n");
        text.append("- POST ")
                .append(url("/verify/schema"))
                .append(
                        ": body {task_id, agent_id?, expected_schema, "
                                + "submitted_output, rules?, bounds?, enforce_rules?, strict_content_check?, detail?}; answer: the signed receipt\n");
        text.append("- GET ")
                .append(url("/score/{agent_id}"))
                .append(": signed trust score (Wilson lower bound of the pass rate)\n");
        text.append("- GET ")
                .append(url("/reputation/{agent_id}"))
                .append(": plain pass/fail history and score over time\n");
        text.append("- GET ")
                .append(url("/receipts/{verification_id}"))
                .append(": one signed receipt (after a 504 receipt_pending, for example)\n");
        text.append("- GET ").append(url("/agents")).append(": leaderboard of every agent, best first\n");
        text.append("- GET ")
                .append(url("/agents/{agent_id}/receipts"))
                .append(": the agent's recent signed receipts\n");
        text.append("- GET ").append(url(LIVE_FEED_PATH)).append(": live receipts (server-sent events)\n");
        text.append("- GET ").append(url("/dashboard")).append(": the dashboard for people\n");
        text.append("- GET ")
                .append(url("/.well-known/agent-card.json"))
                .append(": public keys (verify signatures with these)\n");
        text.append("- GET ").append(url("/openapi.json")).append(": OpenAPI description\n\n");
        text.append("## Limits\n\n- Request body: at most ")
                .append(maxRequestBytes)
                .append(" bytes (larger: 413)\n");
        text.append(
                "- Rule types: sum_equals, gte, lte, exists_in, unique; agent ids starting test- are never scored\n\n");
        text.append(
                "## Errors\n\nEvery error is {code, message, status, retryable, charged, next_actions, fields}.\n\n");
        for (ErrorCode code : ErrorCode.values()) {
            text.append("- ")
                    .append(code.code())
                    .append(" (")
                    .append(code.status())
                    .append(code.retryable() ? ", retryable" : "")
                    .append("): ")
                    .append(code.description())
                    .append('\n');
        }
        return text.toString();
    }

    public String docsHtml() {
        StringBuilder html = new StringBuilder("<!doctype html><html><head><meta charset=\"utf-8\"><title>")
                .append(settings.serviceName())
                .append(" API</title></head><body><h1>")
                .append(settings.serviceName())
                .append(
                        " API</h1><p>Machine-readable: <a href=\"/openapi.json\">openapi.json</a>, "
                                + "<a href=\"/.well-known/agent-card.json\">agent card</a>, <a href=\"/llms.txt\">llms.txt</a>.</p><ul>");
        openApi()
                .get("paths")
                .properties()
                .forEach(path -> path.getValue()
                        .properties()
                        .forEach(op -> html.append("<li><code>")
                                .append(op.getKey().toUpperCase())
                                .append(' ')
                                .append(escape(path.getKey()))
                                .append("</code>: ")
                                .append(escape(op.getValue().get("summary").asString()))
                                .append("</li>")));
        return html.append("</ul></body></html>").toString();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static JsonNode resource(String name) {
        try (InputStream in = DiscoveryDocuments.class.getResourceAsStream(name)) {
            return StrictJson.parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
