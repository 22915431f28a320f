package dev.proofline.engine;

import dev.proofline.attestor.CanonicalWriter;
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

    /** The object for one key version, written once in each of a receipt's two orders. */
    public record Written(String keyVersion, CanonicalWriter canonical, CanonicalWriter published) {
        static Written of(EngineSettings settings, String keyVersion) {
            ObjectNode verify = VerifyBlock.of(settings, keyVersion);
            return new Written(
                    keyVersion,
                    new CanonicalWriter(256).value(verify),
                    CanonicalWriter.compact(256).value(verify));
        }

        void writeTo(CanonicalWriter out) {
            out.canonical(out.sortsKeys() ? canonical : published);
        }
    }
}
