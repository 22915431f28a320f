package dev.proofline.reputation.query;

import dev.proofline.attestor.StrictJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import org.apache.kafka.streams.state.HostInfo;
import tools.jackson.databind.JsonNode;

/**
 * How one instance asks another over the internal routes: a GET answered with JSON (200) or
 * nothing (404); anything else, or no answer, means that instance cannot answer now.
 */
final class InstanceClient {
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String credentialHeader;
    private final String credential;

    InstanceClient(String credentialHeader, String credential) {
        this.credentialHeader = credentialHeader;
        this.credential = credential;
    }

    /** The instance's JSON answer, or empty when it has nothing under that path. */
    Optional<JsonNode> get(HostInfo instance, String path) {
        URI uri = URI.create("http://" + instance.host() + ":" + instance.port() + path);
        try {
            HttpResponse<byte[]> response = http.send(
                    HttpRequest.newBuilder(uri)
                            .header(credentialHeader, credential)
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            return switch (response.statusCode()) {
                case 200 -> Optional.of(StrictJson.parse(response.body()));
                case 404 -> Optional.empty();
                default -> throw new NotQueryableException(instance + " answered " + response.statusCode());
            };
        } catch (IOException e) {
            throw new NotQueryableException(instance + " is unreachable");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NotQueryableException("interrupted");
        }
    }
}
