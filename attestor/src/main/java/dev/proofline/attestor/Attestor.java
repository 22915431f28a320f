package dev.proofline.attestor;

import java.util.Base64;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * Signs answers with a key ring's newest key: it appends the {@code attestation} field
 * {@code {algorithm, key_version, timestamp, signature}} to the response it is given.
 */
public final class Attestor {
    private final KeyRing keys;

    public Attestor(KeyRing keys) {
        this.keys = keys;
    }

    public String keyVersion() {
        return keys.signingKey().version();
    }

    /**
     * Signs {@code response} in place and returns it. {@code timestamp} is the attestation time; for
     * a receipt it is the receipt's {@code verified_at}.
     */
    public ObjectNode attest(ObjectNode response, AttestationContext context, String timestamp) {
        if (response.has("attestation")) {
            throw new IllegalArgumentException("the response is already attested");
        }
        attest(context, timestamp, message -> message.value(response)).putInto(response);
        return response;
    }

    /**
     * Signs a response that is never a tree: {@code canonicalResponse} writes its RFC 8785 form (without
     * an attestation) into the signed message, and the attestation to add to it is returned.
     */
    public Attestation attest(
            AttestationContext context, String timestamp, Consumer<CanonicalWriter> canonicalResponse) {
        SigningKey key = keys.signingKey();
        byte[] signature =
                key.signer().sign(AttestationMessage.of(context, key.version(), timestamp, canonicalResponse));
        return new Attestation(key.version(), timestamp, Base64.getEncoder().encodeToString(signature));
    }
}
