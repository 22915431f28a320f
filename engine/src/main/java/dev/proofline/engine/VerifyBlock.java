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

    /**
     * The object for one key version, written once in each of a receipt's two orders. Its bytes are
     * shared by every receipt of every stream thread, so they never leave this class.
     */
    public static final class Written {
        private final String keyVersion;
        private final CanonicalWriter canonical;
        private final CanonicalWriter published;

        private Written(String keyVersion, CanonicalWriter canonical, CanonicalWriter published) {
            this.keyVersion = keyVersion;
            this.canonical = canonical;
            this.published = published;
        }

        static Written of(EngineSettings settings, String keyVersion) {
            ObjectNode verify = VerifyBlock.of(settings, keyVersion);
            return new Written(
                    keyVersion,
                    new CanonicalWriter(256).value(verify),
                    CanonicalWriter.compact(256).value(verify));
        }

        String keyVersion() {
            return keyVersion;
        }

        /** Appends the object in the order {@code out} writes (the writers here are only read). */
        CanonicalWriter writeTo(CanonicalWriter out) {
            return out.canonical(out.sortsKeys() ? canonical : published);
        }
    }
}
