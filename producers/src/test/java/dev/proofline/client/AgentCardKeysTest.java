package dev.proofline.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.SigningKey;
import dev.proofline.attestor.StrictJson;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Keys from an agent-card as SPEC section 7 puts them: any version of the attestation extension,
 * nothing from other extensions, and an entry this client cannot use skipped rather than fatal.
 */
class AgentCardKeysTest {
    private final KeyRing ring = KeyRing.of(SigningKey.generate("v1-test", new SecureRandom()));
    private final List<String> paths = new CopyOnWriteArrayList<>();
    private HttpServer server;

    @BeforeEach
    void serveTheCard() throws Exception {
        String key = ring.publishedKeys().get(0).publicKey();
        String card = "{\"capabilities\":{\"extensions\":["
                + "{\"uri\":\"urn:example:other\",\"params\":{\"publicKeys\":[{\"keyVersion\":\"v1-test\","
                + "\"algorithm\":\"Ed25519\",\"publicKey\":\"" + "A".repeat(43) + "=\"}]}},"
                + "{\"uri\":\"urn:json-schema-verifier:extension:attestation:v2\",\"params\":{\"publicKeys\":["
                + "{\"keyVersion\":\"rsa-1\",\"algorithm\":\"RSA\",\"publicKey\":\"AAAA\"},"
                + "{\"keyVersion\":\"short\",\"algorithm\":\"Ed25519\",\"publicKey\":\"AAAA\"},"
                + "{\"keyVersion\":7},"
                + "{\"keyVersion\":\"v1-test\",\"algorithm\":\"Ed25519\",\"publicKey\":\"" + key + "\"}]}}]}}";
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            paths.add(exchange.getRequestURI().getPath());
            byte[] body = card.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Test
    void theAttestationExtensionsUsableKeysVerifyAndTheRestAreSkipped() {
        ObjectNode answer = (ObjectNode) StrictJson.parse("{\"result\":\"pass\",\"task_id\":\"t\"}");
        ObjectNode signed = new Attestor(ring).attest(answer, AttestationContext.VERIFY, "2026-12-02T00:00:00Z");
        for (AgentCardKeys keys :
                List.of(AgentCardKeys.of(base()), AgentCardKeys.of(base() + "/.well-known/agent-card.json"))) {
            assertTrue(
                    new ReceiptVerifier(keys.forVersion("v1-test"))
                            .verifySignature(signed, AttestationContext.VERIFY)
                            .valid(),
                    "the attestation:v2 extension's key, not the other extension's zero key");
        }
        assertEquals(
                List.of("/.well-known/agent-card.json", "/.well-known/agent-card.json"),
                paths,
                "a base URL and the card's own URL fetch the same card");
    }
}
