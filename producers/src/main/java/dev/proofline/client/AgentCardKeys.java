package dev.proofline.client;

import dev.proofline.attestor.PublishedKey;
import dev.proofline.attestor.StrictJson;
import dev.proofline.attestor.TrustedKeys;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The public keys a Proofline deployment publishes in its agent-card, every version it ever signed
 * with. Fetched once and cached; fetched again when a receipt names a key version not seen yet
 * (the service rotated), never more often than that.
 */
public final class AgentCardKeys {
    private final URI agentCard;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private volatile List<PublishedKey> keys;

    public AgentCardKeys(URI agentCard) {
        this.agentCard = agentCard;
    }

    /** Where the attestation extension's {@code uri} starts (SPEC section 7); the version follows. */
    static final String ATTESTATION_EXTENSION_PREFIX = "urn:json-schema-verifier:extension:attestation:";

    /**
     * The agent-card of a deployment from its base URL, or the card's own URL as a receipt's
     * {@code verify.public_key_url} names it (a URL whose path ends in {@code .json}).
     */
    public static AgentCardKeys of(String url) {
        URI given = URI.create(url);
        if (given.getPath() != null && given.getPath().endsWith(".json")) {
            return new AgentCardKeys(given);
        }
        return new AgentCardKeys(URI.create(url.replaceAll("/+$", "") + "/.well-known/agent-card.json"));
    }

    /** Keys that include {@code keyVersion} if the service published it. */
    public TrustedKeys forVersion(String keyVersion) {
        List<PublishedKey> known = keys;
        if (known == null || known.stream().noneMatch(k -> k.keyVersion().equals(keyVersion))) {
            known = fetch();
            keys = known;
        }
        return TrustedKeys.of(known);
    }

    /**
     * The transparency log's verifier key ({@code <origin>+<key id>+<key>}) as the agent-card names it,
     * if the deployment runs a log.
     */
    public Optional<String> transparencyLogKey() {
        JsonNode key = card().path("transparency_log").path("verifier_key");
        return key.isString() ? Optional.of(key.asString()) : Optional.empty();
    }

    private List<PublishedKey> fetch() {
        List<PublishedKey> found = new ArrayList<>();
        for (JsonNode extension : card().path("capabilities").path("extensions")) {
            if (!extension.path("uri").isString()
                    || !extension.path("uri").asString().startsWith(ATTESTATION_EXTENSION_PREFIX)) {
                continue; // another extension's keys sign nothing Proofline checks
            }
            for (JsonNode key : extension.path("params").path("publicKeys")) {
                if (key.path("keyVersion").isString()
                        && key.path("algorithm").isString()
                        && key.path("publicKey").isString()) {
                    try {
                        found.add(new PublishedKey(
                                key.get("keyVersion").asString(),
                                key.get("algorithm").asString(),
                                key.get("publicKey").asString()));
                    } catch (IllegalArgumentException notAnEd25519Key) {
                        // another algorithm, or not 32 bytes of base64: a key this client cannot check with
                    }
                }
            }
        }
        return List.copyOf(found);
    }

    private JsonNode card() {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(agentCard)
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("agent-card " + agentCard + " answered " + response.statusCode());
            }
            return StrictJson.parse(response.body());
        } catch (IOException e) {
            throw new IllegalStateException("cannot fetch the agent-card " + agentCard + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted fetching the agent-card", e);
        }
    }
}
