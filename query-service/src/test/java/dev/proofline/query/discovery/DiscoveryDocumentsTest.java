package dev.proofline.query.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.RequestHashes;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ErrorCode;
import dev.proofline.engine.EngineSettings;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class DiscoveryDocumentsTest {
    @TempDir
    Path tmp;

    @Test
    void agentCardPublishesEveryKeyEverUsedAndTheReferenceTestVectors() throws Exception {
        KeyRing keys = KeyRing.openOrCreate(tmp, Clock.systemUTC()).rotate(Clock.systemUTC());
        JsonNode card = new DiscoveryDocuments(EngineSettings.defaults(), keys).agentCard();
        JsonNode extension = card.get("capabilities").get("extensions").get(0);
        assertTrue(extension.get("uri").asString().startsWith("urn:json-schema-verifier:extension:attestation:"));
        JsonNode published = extension.get("params").get("publicKeys");
        assertEquals(2, published.size(), "the retired key stays published");
        assertEquals(
                keys.signingKey().version(), published.get(1).get("keyVersion").asString());
        published.forEach(key -> assertEquals(
                "base64 of the raw 32-byte Ed25519 public key",
                key.get("publicKeyEncoding").asString()));
        // Read the card as a client does: from its text.
        String text = card.toString();
        JsonNode vectors = StrictJson.parse(text)
                .get("capabilities")
                .get("extensions")
                .get(0)
                .get("params")
                .get("requestHashTestVectors");
        JsonNode expected = Conformance.expected().get("hashes");
        assertEquals(3, vectors.size(), "all three reference vectors");
        for (int i = 0; i < 3; i++) {
            String name = "requests/request-hash-vector-" + (i + 1) + ".json";
            JsonNode vector = vectors.get(i);
            assertEquals(expected.get(name).get("request_hash"), vector.get("request_hash"), name);
            assertEquals(Conformance.json(name), vector.get("request"), name);
            assertEquals(
                    RequestHashes.of(vector.get("request")).requestHash(),
                    vector.get("request_hash").asString(),
                    "the published request hashes to the published hash");
        }
        assertEquals(
                expected.get("requests/request-hash-vector-1.json").get("canonical_request"),
                vectors.get(0).get("canonical_request"));
        assertTrue(text.contains("\"tolerance\":1e-9"), "numbers in their canonical form");
        assertTrue(text.contains("[1e+21,0.000001]"), "vector 3's numbers in their canonical form");
        assertFalse(text.contains("E-9"), "no Java number spelling");
        assertEquals("http://127.0.0.1:8080/mcp", card.get("mcp").asString());
    }

    @Test
    void openApiLlmsTxtAndCatalogDescribeTheService() {
        DiscoveryDocuments docs = new DiscoveryDocuments(
                EngineSettings.defaults(),
                KeyRing.of(dev.proofline.attestor.SigningKey.generate("v1", new java.security.SecureRandom())));
        JsonNode openApi = docs.openApi();
        assertEquals("3.1.0", openApi.get("openapi").asString());
        for (String path :
                new String[] {"/verify/schema", "/verify/deliverable", "/score/{agent_id}", "/reputation/{agent_id}"}) {
            assertTrue(openApi.get("paths").has(path), path);
        }
        JsonNode codes = openApi.at("/components/schemas/ErrorDocument/properties/code/enum");
        for (ErrorCode code : ErrorCode.values()) {
            assertTrue(codes.toString().contains("\"" + code.code() + "\""), code.code());
        }
        assertEquals(ErrorCode.values().length, openApi.get("x-error-codes").size());
        java.util.Set<String> statuses = new java.util.TreeSet<>();
        openApi.get("paths")
                .forEach(path ->
                        path.forEach(op -> statuses.addAll(op.get("responses").propertyNames())));
        assertTrue(
                statuses.containsAll(java.util.List.of(
                        "200", "400", "401", "402", "403", "404", "413", "422", "429", "500", "503", "504")),
                statuses.toString());
        // Every reference points at something that exists.
        java.util.regex.Matcher ref =
                java.util.regex.Pattern.compile("#/components/(\\w+)/(\\w+)").matcher(openApi.toString());
        while (ref.find()) {
            assertTrue(openApi.get("components").get(ref.group(1)).has(ref.group(2)), ref.group());
        }
        assertEquals(
                DiscoveryDocuments.sampleRequest(),
                openApi.at("/components/requestBodies/Verification/content/application~1json/examples/invoice/value"));
        assertEquals("http://127.0.0.1:8080", openApi.at("/servers/0/url").asString());
        String llms = docs.llmsTxt(1048576);
        for (String listed : new String[] {"/mcp", "/verify/deliverable", "/llms-full.txt"}) {
            assertTrue(llms.contains("http://127.0.0.1:8080" + listed), listed);
        }
        String full = docs.llmsFullTxt(1048576, "");
        assertTrue(full.startsWith(llms), "llms-full.txt is llms.txt and more");
        assertTrue(full.contains("\"invoice-7731-draft\""), "the complete sample request");
        assertTrue(full.contains("\"code\" : \"invalid_request\""), "an error made by the real parser");
        assertFalse(full.contains("{{"), "every placeholder filled");
        for (ErrorCode code : ErrorCode.values()) {
            assertTrue(llms.contains(code.code()), code.code());
        }
        JsonNode link = docs.apiCatalog().get("linkset").get(0);
        assertEquals(
                "http://127.0.0.1:8080/openapi.json",
                link.get("service-desc").get(0).get("href").asString());
        assertTrue(docs.docsHtml().contains("/verify/schema"));
    }

    /**
     * What a generated client or a fuzzer reads: the log's routes only where the log runs, and a 401
     * on every operation, since a bad or revoked key is refused on any route.
     */
    @Test
    void theOpenApiDescribesOnlyTheRoutesServedAndEveryStatusTheyGive() {
        KeyRing keys = KeyRing.of(dev.proofline.attestor.SigningKey.generate("v1", new java.security.SecureRandom()));
        JsonNode withoutLog = new DiscoveryDocuments(EngineSettings.defaults(), keys).openApi();
        JsonNode withLog = new DiscoveryDocuments(
                        EngineSettings.defaults(),
                        keys,
                        java.util.Optional.of(new DiscoveryDocuments.TransparencyLog("log.example/tlog", "k")))
                .openApi();
        for (String path : OpenApiDocument.LOG_PATHS) {
            assertFalse(withoutLog.get("paths").has(path), path);
            assertTrue(withLog.get("paths").has(path), path);
        }
        withLog.get("paths")
                .properties()
                .forEach(path -> path.getValue()
                        .properties()
                        .forEach(op -> assertTrue(
                                op.getValue().get("responses").has("401"), op.getKey() + " " + path.getKey())));
        assertTrue(withLog.at("/paths/~1agents/get/responses").has("422"), "a limit out of range");
    }
}
