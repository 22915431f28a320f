package dev.proofline.access;

import dev.proofline.attestor.StrictJson;
import tools.jackson.databind.JsonNode;

/**
 * What an instance signs with and which secret it derives ids from, as fingerprints that reveal
 * neither: the signing key's version and a hash of its public key, and
 * {@link dev.proofline.attestor.DeploymentSecret#fingerprint()}. Published on the callers topic, so
 * an instance started with other keys than its group's refuses to start instead of signing with
 * another key and issuing other ids.
 */
public record DeploymentFingerprints(String signingKeyVersion, String signingKey, String secret) {
    /** The record key; caller names cannot start with '#'. */
    static final String RECORD_KEY = "#deployment";

    String toJson() {
        return StrictJson.NODES
                .objectNode()
                .put("signing_key_version", signingKeyVersion)
                .put("signing_key", signingKey)
                .put("secret", secret)
                .toString();
    }

    static DeploymentFingerprints fromJson(String text) {
        JsonNode json = StrictJson.parse(text);
        return new DeploymentFingerprints(
                json.path("signing_key_version").asString(),
                json.path("signing_key").asString(),
                json.path("secret").asString());
    }
}
