package dev.proofline.attestor;

import java.util.Base64;
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
        SigningKey key = keys.signingKey();
        byte[] signature = key.signer().sign(AttestationMessage.of(context, key.version(), timestamp, response));
        ObjectNode attestation = response.putObject("attestation");
        attestation.put("algorithm", PublishedKey.ED25519);
        attestation.put("key_version", key.version());
        attestation.put("timestamp", timestamp);
        attestation.put("signature", Base64.getEncoder().encodeToString(signature));
        return response;
    }
}
