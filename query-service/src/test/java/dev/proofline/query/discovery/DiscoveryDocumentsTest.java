package dev.proofline.query.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.KeyRing;
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
        JsonNode vectors = extension.get("params").get("requestHashTestVectors");
        JsonNode expected = Conformance.expected().get("hashes");
        assertEquals(
                expected.get("requests/request-hash-vector-1.json").get("request_hash"),
                vectors.get(0).get("request_hash"));
        assertEquals(
                expected.get("requests/request-hash-vector-1.json").get("canonical_request"),
                vectors.get(0).get("canonical_request"));
        assertEquals(
                expected.get("requests/request-hash-vector-2.json").get("request_hash"),
                vectors.get(1).get("request_hash"));
        assertEquals(
                Conformance.json("requests/request-hash-vector-2.json"),
                vectors.get(1).get("request"));
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
        String llms = docs.llmsTxt(1048576);
        for (ErrorCode code : ErrorCode.values()) {
            assertTrue(llms.contains(code.code()), code.code());
        }
        JsonNode link = docs.apiCatalog().get("linkset").get(0);
        assertEquals(
                "http://127.0.0.1:8080/openapi.json",
                link.get("service-desc").get(0).get("href").asString());
        assertTrue(docs.docsHtml().contains("/verify/schema"));
    }
}
