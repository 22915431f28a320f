package dev.proofline.attestor;

import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code attestation} object of a signed answer ({@code docs/signing.md}): who signed, when, and
 * the Base64 signature over the canonical message. Its layout lives in this one record, for trees
 * and for bytes alike.
 */
public record Attestation(String keyVersion, String timestamp, String signature) {

    /** Adds {@code "attestation": {...}} to a response tree, last. */
    void putInto(ObjectNode response) {
        ObjectNode attestation = response.putObject("attestation");
        attestation.put("algorithm", PublishedKey.ED25519);
        attestation.put("key_version", keyVersion);
        attestation.put("timestamp", timestamp);
        attestation.put("signature", signature);
    }

    /**
     * Writes the object in its documented order, as a published answer shows it. Never signed: the
     * signed message is the response without its attestation.
     */
    public CanonicalWriter writeTo(CanonicalWriter out) {
        return out.ascii("{\"algorithm\":")
                .string(PublishedKey.ED25519)
                .ascii(",\"key_version\":")
                .string(keyVersion)
                .ascii(",\"timestamp\":")
                .string(timestamp)
                .ascii(",\"signature\":")
                .string(signature)
                .ascii("}");
    }
}
