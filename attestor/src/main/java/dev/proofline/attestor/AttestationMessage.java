package dev.proofline.attestor;

import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * The bytes that are signed ({@code docs/signing.md}): the RFC 8785 form of
 * {@code {"context", "algorithm", "key_version", "attested_at", "response"}}, where the response is
 * the whole answer without its {@code attestation} field.
 */
final class AttestationMessage {
    private AttestationMessage() {}

    static byte[] of(AttestationContext context, String keyVersion, String attestedAt, JsonNode response) {
        return of(context, keyVersion, attestedAt, message -> message.value(response));
    }

    /** {@code response} writes the response's canonical form into the message where it belongs. */
    static byte[] of(
            AttestationContext context, String keyVersion, String attestedAt, Consumer<CanonicalWriter> response) {
        // The five keys are fixed, so their canonical order is too; the response is written once.
        CanonicalWriter message = new CanonicalWriter(4096)
                .ascii("{\"algorithm\":")
                .string(PublishedKey.ED25519)
                .ascii(",\"attested_at\":")
                .string(attestedAt)
                .ascii(",\"context\":")
                .string(context.id())
                .ascii(",\"key_version\":")
                .string(keyVersion)
                .ascii(",\"response\":");
        response.accept(message);
        return message.ascii("}").toByteArray();
    }
}
