package dev.proofline.engine;

import dev.proofline.attestor.StrictJson;
import tools.jackson.databind.node.ObjectNode;

/** The {@code verify} object of every signed answer: where the key is published and how to check. */
public final class VerifyBlock {
    private VerifyBlock() {}

    public static ObjectNode of(EngineSettings settings, String keyVersion) {
        ObjectNode verify = StrictJson.NODES.objectNode();
        verify.put("public_key_url", settings.publicBaseUrl() + "/.well-known/agent-card.json");
        verify.put("key_version", keyVersion);
        verify.put("canonicalization", "RFC 8785 (JCS)");
        verify.put("hash_algorithm", "SHA-256");
        verify.put("service", settings.serviceName());
        verify.put("mcp", settings.publicBaseUrl() + "/mcp");
        return verify;
    }
}
