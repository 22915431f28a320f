package dev.proofline.client;

import dev.proofline.attestor.PublishedKey;
import dev.proofline.attestor.StrictJson;
import dev.proofline.attestor.TrustedKeys;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;

/**
 * The public keys a Proofline deployment publishes in its agent-card, every version it ever signed
 * with. Fetched once and cached; fetched again when a receipt names a key version the card did not
 * list (the service rotated), at most once a second: a stream of receipts naming versions nobody
 * published cannot turn each receipt into a fetch, and a receipt signed right after a rotation
 * still finds its key.
 */
public final class AgentCardKeys {
    private final URI agentCard;
    private static final Duration FETCH_TIMEOUT = Duration.ofSeconds(15);
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final long REFETCH_NANOS = 1_000_000_000L;

    /** The card's keys as last read; null until a read succeeds. */
    private volatile List<PublishedKey> keys;
    // When the card was last asked for (guarded by this).
    private boolean attempted;
    private long attemptedAt;

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

    /**
     * Keys that include {@code keyVersion} if the service published it. The card is read again for
     * a version it did not list, one read at a time and at most once a second, whether the last
     * read succeeded or not: a card that is down is not asked once per receipt.
     */
    public TrustedKeys forVersion(String keyVersion) {
        List<PublishedKey> known = keys;
        if (lists(known, keyVersion)) {
            return TrustedKeys.of(known);
        }
        synchronized (this) {
            known = keys;
            if (!lists(known, keyVersion) && (!attempted || System.nanoTime() - attemptedAt >= REFETCH_NANOS)) {
                attempted = true;
                try {
                    known = fetch();
                    keys = known;
                } finally {
                    // After the read, failed or not: a slow read of a card that is down (up to
                    // 15 s) must not let every waiting thread read it again in turn.
                    attemptedAt = System.nanoTime();
                }
            }
        }
        if (known == null) {
            throw unavailable(0, "could not be read less than a second ago", null);
        }
        return TrustedKeys.of(known);
    }

    private static boolean lists(List<PublishedKey> known, String keyVersion) {
        return known != null && known.stream().anyMatch(k -> k.keyVersion().equals(keyVersion));
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

    /** The card, read whole within {@code FETCH_TIMEOUT} (headers and body) and up to the body cap. */
    private JsonNode card() {
        HttpResponse<String> response;
        CompletableFuture<HttpResponse<String>> exchange = http.sendAsync(
                HttpRequest.newBuilder(agentCard).timeout(FETCH_TIMEOUT).build(), BoundedBody.handler());
        try {
            response = exchange.get(FETCH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (cause instanceof ProoflineException tooLarge) {
                throw tooLarge;
            }
            throw unavailable(0, "cannot be fetched (" + cause.getClass().getSimpleName() + ")", cause);
        } catch (TimeoutException e) {
            exchange.cancel(true); // the exchange is aborted, not left reading in the background
            throw unavailable(0, "was not read within " + FETCH_TIMEOUT.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            throw unavailable(0, "was not fetched: interrupted", e);
        }
        if (response.statusCode() != 200) {
            throw unavailable(response.statusCode(), "answered " + response.statusCode(), null);
        }
        try {
            return StrictJson.parse(response.body());
        } catch (RuntimeException notJson) {
            throw unavailable(200, "is not JSON", notJson);
        }
    }

    private ProoflineException unavailable(int status, String what, Throwable cause) {
        ProoflineException e = new ProoflineException(
                "agent_card_unavailable", status, true, "the agent-card " + agentCard + " " + what, null);
        if (cause != null) {
            e.initCause(cause);
        }
        return e;
    }
}
