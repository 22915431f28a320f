package dev.proofline.cli;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.StrictJson;
import dev.proofline.attestor.VerificationOutcome;
import dev.proofline.client.AgentCardKeys;
import dev.proofline.contract.HttpUrls;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * {@code proofline score AGENT_ID [--url URL]}: the agent's signed trust score, its signature
 * checked against the deployment's agent-card, pretty-printed. Exit 1 if the signature fails.
 */
final class ScoreCommand implements Command {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Args args = new Args(words, Set.of("url"));
        String agentId = args.positional(0, "AGENT_ID");
        args.expectPositionals(1);
        String url = args.option("url", "http://127.0.0.1:8080").replaceAll("/+$", "");
        URI score = HttpUrls.parse(url + "/score/"
                        + URLEncoder.encode(agentId, StandardCharsets.UTF_8).replace("+", "%20"))
                .orElseThrow(
                        () -> new UsageException("--url '" + url + "' is not an http:// or https:// URL with a host"));
        HttpResponse<String> response;
        try {
            response = HTTP.send(
                    HttpRequest.newBuilder(score).timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            err.println("proofline score: " + url + " could not be reached ("
                    + e.getClass().getSimpleName() + ")");
            return 2;
        }
        JsonNode answer;
        try {
            answer = StrictJson.parse(response.body());
        } catch (RuntimeException e) {
            err.println("proofline score: " + url + " answered " + response.statusCode() + " with something not JSON");
            return 2;
        }
        if (response.statusCode() != 200) {
            err.println(StrictJson.pretty(answer));
            return 1;
        }
        String keyVersion = answer.path("attestation").path("key_version").asString("");
        VerificationOutcome outcome = new ReceiptVerifier(AgentCardKeys.of(url).forVersion(keyVersion))
                .verifySignature(answer, AttestationContext.SCORE);
        out.println(StrictJson.pretty(answer));
        out.println("signature: " + outcome);
        // A genuine score of another agent, served in place of this one's, is signed just as well.
        if (!agentId.equals(answer.path("agent_id").asString(null))) {
            err.println("proofline score: the signed score names another agent than the one asked for");
            return 1;
        }
        return outcome.valid() ? 0 : 1;
    }
}
