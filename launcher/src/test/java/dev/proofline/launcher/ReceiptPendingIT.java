package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.StrictJson;
import dev.proofline.client.AgentCardKeys;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The REST caller's whole path when the pipeline is slower than it waits: the pipeline commits
 * every 4 s, the front door waits 1 s, so the answer is 504 receipt_pending naming the
 * verification_id; GET /receipts/{verification_id} then returns the signed receipt once committed.
 */
class ReceiptPendingIT {
    private static final Pattern ID = Pattern.compile("verification_id ([0-9a-f-]{36})");
    /** Commits only on a 4 s interval, never early, behind a front door that waits 1 s. */
    private static final Map<String, String> SLOWER_THAN_THE_WAIT =
            Map.of("verify.timeout.seconds", "1", "streams.commit.interval.ms", "4000", "verify.eager.commit.ms", "0");

    @TempDir
    Path tmp;

    @Test
    void aReceiptThatWasPendingIsFetchedByItsIdOnceCommitted() throws Exception {
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"));
                ProoflineNode node = TestNodes.start(kafka.bootstrapServers(), tmp, SLOWER_THAN_THE_WAIT)) {
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> pending = verify(http, node, "pending-seller");
            assertEquals(504, pending.statusCode(), pending.body());
            JsonNode error = StrictJson.parse(pending.body());
            assertEquals("receipt_pending", error.get("code").asString());
            assertTrue(pending.headers().firstValue("Retry-After").isPresent());
            Matcher id = ID.matcher(error.get("message").asString());
            assertTrue(id.find(), error.toString());
            String verificationId = id.group(1);
            assertTrue(error.get("message").asString().contains("GET /receipts/" + verificationId));

            HttpResponse<String> fetched = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                fetched = http.send(
                        HttpRequest.newBuilder(URI.create(node.httpUrl() + "/receipts/" + verificationId))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (fetched.statusCode() == 200) {
                    break;
                }
                assertEquals(
                        "receipt_not_found",
                        StrictJson.parse(fetched.body()).get("code").asString(),
                        "until committed");
                Thread.sleep(250);
            }
            assertEquals(200, fetched.statusCode(), fetched.body());
            JsonNode receipt = StrictJson.parse(fetched.body());
            assertEquals(verificationId, receipt.get("verification_id").asString());
            assertEquals("pass", receipt.get("result").asString());
            ReceiptVerifier verifier = new ReceiptVerifier(AgentCardKeys.of(node.httpUrl())
                    .forVersion(receipt.get("attestation").get("key_version").asString()));
            assertTrue(
                    verifier.verifySignature(receipt, AttestationContext.VERIFY).valid());
        }
    }

    /**
     * The SDK's caller on the same slow pipeline: the exception names the verification id, and the
     * receipt is fetched by it, checked against the request, instead of the request being sent (and
     * verified, and charged) again.
     */
    @Test
    void theSdkFetchesAPendingReceiptByItsIdInsteadOfVerifyingAgain() throws Exception {
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"));
                ProoflineNode node = TestNodes.start(kafka.bootstrapServers(), tmp, SLOWER_THAN_THE_WAIT);
                dev.proofline.client.ProoflineClient client =
                        dev.proofline.client.ProoflineClient.overRest(node.httpUrl())) {
            String request = java.nio.file.Files.readString(Conformance.file("requests/invoice-final.json"))
                    .replace("test-seller-invoice-agent", "sdk-pending-seller");
            java.util.concurrent.ExecutionException pending = org.junit.jupiter.api.Assertions.assertThrows(
                    java.util.concurrent.ExecutionException.class,
                    () -> client.verify(request).get(30, TimeUnit.SECONDS));
            dev.proofline.client.ProoflineException error =
                    (dev.proofline.client.ProoflineException) pending.getCause();
            assertEquals("receipt_pending", error.code());
            String verificationId = error.pendingVerificationId().orElseThrow(() -> new AssertionError(error));
            dev.proofline.client.VerifiedReceipt receipt = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (receipt == null && System.nanoTime() < deadline) {
                try {
                    receipt = client.receipt(verificationId, request).get(30, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException notYet) {
                    assertEquals(
                            "receipt_not_found",
                            ((dev.proofline.client.ProoflineException) notYet.getCause()).code(),
                            "until committed");
                    Thread.sleep(250);
                }
            }
            assertTrue(receipt != null, "the pending receipt was fetched");
            assertEquals(verificationId, receipt.verificationId());
            assertTrue(receipt.passed());
            // Checked against the request: another request's data is refused, though the receipt is genuine.
            String other = request.replace("\"total\"", "\"totals\"");
            java.util.concurrent.ExecutionException mismatch = org.junit.jupiter.api.Assertions.assertThrows(
                    java.util.concurrent.ExecutionException.class,
                    () -> client.receipt(verificationId, other).get(30, TimeUnit.SECONDS));
            assertTrue(
                    mismatch.getCause() instanceof dev.proofline.client.InvalidReceiptException, mismatch.toString());
        }
    }

    /**
     * The same slow pipeline, now allowed to commit early ({@code verify.eager.commit.ms}):
     * a fresh request asks for its commit at once, so its receipt is committed, and answered, well
     * inside the 1 s the front door waits, though the interval alone would take 8 s.
     */
    @Test
    void aFreshRequestIsCommittedAtOnceNotAtTheInterval() throws Exception {
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"));
                ProoflineNode node = TestNodes.start(
                        kafka.bootstrapServers(),
                        tmp,
                        // A busy CI machine may take more than the default 50 ms to fetch a request; the
                        // early commit is what is tested here, not the default's margin.
                        Map.of(
                                "verify.timeout.seconds",
                                "1",
                                "streams.commit.interval.ms",
                                "8000",
                                "verify.eager.commit.ms",
                                "500"))) {
            HttpClient http = HttpClient.newHttpClient();
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> answered = verify(http, node, "eager-seller");
                assertEquals(200, answered.statusCode(), answered.body());
                assertEquals(
                        "pass", StrictJson.parse(answered.body()).get("result").asString());
            }
        }
    }

    /**
     * POST /verify/schema with the conformance invoice under this agent id: not a test- agent,
     * because test- receipts are never indexed, so never fetched by id.
     */
    private static HttpResponse<String> verify(HttpClient http, ProoflineNode node, String agent) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + "/verify/schema"))
                        .POST(HttpRequest.BodyPublishers.ofString(
                                java.nio.file.Files.readString(Conformance.file("requests/invoice-final.json"))
                                        .replace("test-seller-invoice-agent", agent)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
