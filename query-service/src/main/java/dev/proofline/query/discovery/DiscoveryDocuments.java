package dev.proofline.query.discovery;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.CanonicalJson;
import dev.proofline.attestor.CanonicalRequest;
import dev.proofline.attestor.EcmaScriptNumbers;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.PublishedKey;
import dev.proofline.attestor.RequestHashes;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ErrorCode;
import dev.proofline.engine.EngineSettings;
import dev.proofline.engine.ParseOutcome;
import dev.proofline.engine.RequestParser;
import dev.proofline.engine.SchemaCompiler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.util.RawValue;

/**
 * The discovery documents ({@code docs/http.md}) that describe this deployment to people and agents: the
 * agent-card (with every public key ever used and request-hash test vectors), the OpenAPI
 * description, the RFC 9727 API catalog, llms.txt and llms-full.txt, and the JSON index of {@code GET /}.
 */
public final class DiscoveryDocuments {
    /** Where the live feed is served ({@code LiveReceipts} mounts it there). */
    public static final String LIVE_FEED_PATH = "/feed/receipts";

    public static final String ATTESTATION_EXTENSION = "urn:json-schema-verifier:extension:attestation:v1";
    private static final String[] VECTORS = {
        "request-hash-vector-1.json", "request-hash-vector-2.json", "request-hash-vector-3.json"
    };
    static final String PUBLIC_KEY_ENCODING = "base64 of the raw 32-byte Ed25519 public key";

    private final EngineSettings settings;
    private final KeyRing keys;
    private final OpenApiDocument openApi = new OpenApiDocument();
    private final String examples;

    /** The transparency log as the agent-card names it: its checkpoint origin and verifier key. */
    public record TransparencyLog(String origin, String verifierKey) {}

    private final Optional<TransparencyLog> transparencyLog;

    public DiscoveryDocuments(EngineSettings settings, KeyRing keys) {
        this(settings, keys, Optional.empty());
    }

    public DiscoveryDocuments(EngineSettings settings, KeyRing keys, Optional<TransparencyLog> transparencyLog) {
        this.settings = settings;
        this.keys = keys;
        this.transparencyLog = transparencyLog;
        this.examples = examples();
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
                    .put("publicKey", key.publicKey())
                    .put("publicKeyEncoding", PUBLIC_KEY_ENCODING);
        }
        transparencyLog.ifPresent(log -> {
            ObjectNode tlog = card.putObject("transparency_log");
            tlog.put("origin", log.origin());
            tlog.put("verifier_key", log.verifierKey());
            tlog.put("checkpoint", url("/tlog/checkpoint"));
            tlog.put("tiles", url("/tlog/tile/"));
            tlog.put("proof", url("/receipts/{verification_id}/proof"));
            tlog.put("entry", "SHA-256 of the receipt exactly as GET /receipts/{verification_id} returns it");
            tlog.putArray("formats")
                    .add("https://c2sp.org/tlog-checkpoint")
                    .add("https://c2sp.org/signed-note")
                    .add("https://c2sp.org/tlog-tiles")
                    .add("https://c2sp.org/tlog-proof");
        });
        ArrayNode vectors = params.putArray("requestHashTestVectors");
        for (String name : VECTORS) {
            JsonNode request = resource(name);
            vectors.addObject()
                    .<ObjectNode>set("request", withCanonicalNumbers(request))
                    .put("canonical_request", CanonicalJson.toCanonicalString(CanonicalRequest.of(request)))
                    .put("request_hash", RequestHashes.of(request).requestHash());
        }
        return card;
    }

    public ObjectNode openApi() {
        return openApi.forDeployment(settings, transparencyLog.isPresent());
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
        transparencyLog.ifPresent(log -> {
            links.put("receipt_proof", url("/receipts/{verification_id}/proof"));
            links.put("transparency_log_checkpoint", url("/tlog/checkpoint"));
        });
        links.put("agents", url("/agents"));
        links.put("dashboard", url("/dashboard"));
        links.put("live_feed", url(LIVE_FEED_PATH));
        links.put("agent_card", url("/.well-known/agent-card.json"));
        links.put("openapi", url("/openapi.json"));
        links.put("docs", url("/docs"));
        links.put("api_catalog", url("/.well-known/api-catalog"));
        links.put("llms_txt", url("/llms.txt"));
        links.put("llms_full_txt", url("/llms-full.txt"));
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
                .append(": signed trust score (Wilson lower bound of the pass rate); a deployment may charge for it"
                        + " (402 with Payment-Required, as for verification)\n");
        text.append("- GET ")
                .append(url("/reputation/{agent_id}"))
                .append(": plain pass/fail history and score over time\n");
        text.append("- GET ")
                .append(url("/receipts/{verification_id}"))
                .append(": one signed receipt (after a 504 receipt_pending, for example), for the key that"
                        + " submitted it (without a key: the same client address) and operators\n");
        transparencyLog.ifPresent(log -> {
            text.append("- GET ")
                    .append(url("/receipts/{verification_id}/proof"))
                    .append(": the receipt's inclusion proof in the transparency log (c2sp.org/tlog-proof)\n");
            text.append("- GET ")
                    .append(url("/tlog/checkpoint"))
                    .append(
                            ": the transparency log's signed checkpoint; tiles under /tlog/tile/ (c2sp.org/tlog-tiles)\n");
        });
        text.append("- GET ").append(url("/agents")).append(": leaderboard of every agent, best first\n");
        text.append("- GET ")
                .append(url("/agents/{agent_id}/receipts"))
                .append(": the agent's recent signed receipts (operator key)\n");
        text.append("- GET ")
                .append(url(LIVE_FEED_PATH))
                .append(": live receipts, server-sent events (operator key)\n");
        text.append("- GET ").append(url("/dashboard")).append(": the dashboard for people\n");
        text.append("- GET ")
                .append(url("/.well-known/agent-card.json"))
                .append(": public keys (verify signatures with these)\n");
        text.append("- POST ")
                .append(url("/verify/deliverable"))
                .append(": the same as /verify/schema, for callers that name the thing verified a deliverable\n");
        text.append("- MCP (Streamable HTTP) ")
                .append(url("/mcp"))
                .append(
                        ": tools verify_schema (the request above as arguments) and get_verification_record {agent_id}\n");
        text.append("- GET ").append(url("/openapi.json")).append(": OpenAPI description; ");
        text.append(url("/docs")).append(": interactive documentation\n");
        text.append("- GET ").append(url("/llms-full.txt")).append(": this guide with complete examples\n\n");
        text.append("Keys (from the operator) travel as Authorization: Bearer <key>, never in a URL; without one,"
                + " verification uses the free allowance of your client address, or asks for an x402 payment.\n\n");
        text.append("## Limits\n\n- Request body: at most ")
                .append(maxRequestBytes)
                .append(" bytes (larger: 413)\n");
        text.append(
                "- Rule types: sum_equals, gte, lte, exists_in, unique; agent ids starting test- are never scored\n\n");
        text.append("## Errors\n\nEvery error is {code, message, status, retryable, charged, next_actions}, with"
                + " retry_after (seconds, also the Retry-After header) on retryable ones and fields"
                + " [{field, problem, fix}] when fields are wrong.\n\n");
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

    /**
     * {@code /llms-full.txt}: {@code /llms.txt} followed by whole requests and answers (the sample
     * invoice, its receipt, an error document made by the real parser, a score, an MCP call).
     */
    public String llmsFullTxt(int maxRequestBytes, String llmsAppendix) {
        return llmsTxt(maxRequestBytes) + llmsAppendix + examples;
    }

    /** The examples of llms-full.txt: fixed for a deployment, so written once. */
    private String examples() {
        String error = ((ParseOutcome.Invalid) new RequestParser(new SchemaCompiler(1), settings.maxRequestBytes())
                        .parse("{\"task_id\": \"t-1\", \"submitted_output\": {\"total\": 1}}".getBytes(UTF_8)))
                .error()
                .toJson()
                .toPrettyString();
        return text("llms-full-examples.md")
                .replace("{{SAMPLE_REQUEST}}", sampleRequest().toPrettyString())
                .replace("{{SAMPLE_RECEIPT}}", resource("sample-receipt.json").toPrettyString())
                .replace("{{SAMPLE_ERROR}}", error)
                .replace("{{BASE}}", settings.publicBaseUrl());
    }

    /** The conformance draft invoice: a complete request whose line totals do not add up. */
    public static JsonNode sampleRequest() {
        return resource("sample-invoice-request.json");
    }

    /** The plain route list {@code GET /} shows a browser; {@code /docs} is the interactive page. */
    public String docsHtml() {
        StringBuilder html = new StringBuilder("<!doctype html><html><head><meta charset=\"utf-8\"><title>")
                .append(settings.serviceName())
                .append(" API</title></head><body><h1>")
                .append(settings.serviceName())
                .append(
                        " API</h1><p>Interactive: <a href=\"/docs\">/docs</a>. Machine-readable: "
                                + "<a href=\"/openapi.json\">openapi.json</a>, "
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

    /**
     * The same tree with every non-integer number written as RFC 8785 prints it ({@code 1e-9}, not
     * Jackson's {@code 1.0E-9}), so a vector reads exactly as the canonical request it hashes to.
     */
    static JsonNode withCanonicalNumbers(JsonNode node) {
        if (node.isObject()) {
            ObjectNode copy = StrictJson.NODES.objectNode();
            node.properties().forEach(field -> {
                JsonNode value = field.getValue();
                if (isFraction(value)) {
                    copy.putRawValue(field.getKey(), new RawValue(EcmaScriptNumbers.format(value.doubleValue())));
                } else {
                    copy.set(field.getKey(), withCanonicalNumbers(value));
                }
            });
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = StrictJson.NODES.arrayNode();
            for (JsonNode element : node) {
                if (isFraction(element)) {
                    copy.addRawValue(new RawValue(EcmaScriptNumbers.format(element.doubleValue())));
                } else {
                    copy.add(withCanonicalNumbers(element));
                }
            }
            return copy;
        }
        return node;
    }

    private static boolean isFraction(JsonNode node) {
        return node.isNumber() && !node.isIntegralNumber();
    }

    private static String text(String name) {
        try (InputStream in = DiscoveryDocuments.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode resource(String name) {
        try (InputStream in = DiscoveryDocuments.class.getResourceAsStream(name)) {
            return StrictJson.parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
