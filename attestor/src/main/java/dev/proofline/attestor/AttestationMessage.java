package dev.proofline.attestor;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The bytes that are signed ({@code docs/signing.md}): the RFC 8785 form of
 * {@code {"context", "algorithm", "key_version", "attested_at", "response"}}, where the response is
 * the whole answer without its {@code attestation} field.
 */
final class AttestationMessage {
    private AttestationMessage() {}

    static byte[] of(AttestationContext context, String keyVersion, String attestedAt, JsonNode response) {
        ObjectNode message = StrictJson.NODES.objectNode();
        message.put("context", context.id());
        message.put("algorithm", PublishedKey.ED25519);
        message.put("key_version", keyVersion);
        message.put("attested_at", attestedAt);
        message.set("response", response);
        return CanonicalJson.toCanonicalBytes(message);
    }
}
