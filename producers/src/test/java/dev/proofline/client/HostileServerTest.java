package dev.proofline.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.SigningKey;
import dev.proofline.attestor.StrictJson;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client against a server that misbehaves: every failure is one of the two documented
 * exceptions, nothing is read without bound, and nothing waits forever.
 */
class HostileServerTest {
    private static final String REQUEST =
            "{\"task_id\":\"t\",\"expected_schema\":{\"type\":\"object\"},\"submitted_output\":{}}";
    private final KeyRing ring = KeyRing.of(SigningKey.generate("v1-test", new SecureRandom()));
    private final List<String> cardFetches = new CopyOnWriteArrayList<>();
    private volatile int cardStatus = 200;
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final java.util.concurrent.ExecutorService handlers = Executors.newCachedThreadPool();
    private HttpServer server;

    @BeforeEach
    void serve() throws Exception {
        String offCurve = Base64.getEncoder().encodeToString(filled((byte) 0xFF)); // y >= p: no point
        String card =
                "{\"capabilities\":{\"extensions\":[{\"uri\":\"urn:json-schema-verifier:extension:attestation:v1\","
                        + "\"params\":{\"publicKeys\":["
                        + "{\"keyVersion\":\"off-curve\",\"algorithm\":\"Ed25519\",\"publicKey\":\"" + offCurve + "\"},"
                        + "{\"keyVersion\":\"v1-test\",\"algorithm\":\"Ed25519\",\"publicKey\":\""
                        + ring.publishedKeys().get(0).publicKey() + "\"}]}}]}}";
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(handlers);
        server.createContext("/.well-known/agent-card.json", exchange -> {
            cardFetches.add(exchange.getRequestURI().getPath());
            byte[] body = card.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(cardStatus, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/slow-down/.well-known/agent-card.json", exchange -> {
            cardFetches.add(exchange.getRequestURI().getPath());
            try {
                Thread.sleep(1_500); // a card that is down, and slow to say so
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        server.createContext("/huge/verify/schema", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, 0); // chunked, without end
            try (OutputStream out = exchange.getResponseBody()) {
                byte[] spaces = new byte[1 << 20];
                java.util.Arrays.fill(spaces, (byte) ' ');
                for (int i = 0; i < 64; i++) {
                    out.write(spaces);
                }
            } catch (java.io.IOException cancelled) {
                // the client stopped reading: what is tested
            }
        });
        server.createContext("/trickle/verify/schema", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, 0); // the headers, one byte, then nothing
            try {
                exchange.getResponseBody().write('{');
                exchange.getResponseBody().flush();
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (java.io.IOException gone) {
                // the client gave up: what is tested
            }
            exchange.close();
        });
        server.createContext("/silent/verify/schema", exchange -> {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        server.createContext("/auth/verify/schema", exchange -> {
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        handlers.shutdownNow(); // handlers still sleeping for a client that gave up
    }

    private static byte[] filled(byte b) {
        byte[] bytes = new byte[32];
        java.util.Arrays.fill(bytes, b);
        return bytes;
    }

    private String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private String receipt(String keyVersion) {
        ObjectNode answer = (ObjectNode) StrictJson.parse("{\"result\":\"pass\",\"task_id\":\"t\"}");
        ObjectNode signed = new Attestor(ring).attest(answer, AttestationContext.VERIFY, "2026-12-02T00:00:00Z");
        ((ObjectNode) signed.get("attestation")).put("key_version", keyVersion);
        return signed.toString();
    }

    private static ProoflineException failure(java.util.concurrent.CompletableFuture<?> answer) throws Exception {
        ExecutionException e = assertThrows(ExecutionException.class, () -> answer.get(30, TimeUnit.SECONDS));
        return assertInstanceOf(ProoflineException.class, e.getCause(), String.valueOf(e.getCause()));
    }

    @Test
    void aKeyReadFromItsFileIsTrimmedAndABrokenOneIsRefusedWithoutQuotingIt() throws Exception {
        String key = "pl_" + "k".repeat(43);
        try (ProoflineClient client = ProoflineClient.builder()
                .baseUrl(base() + "/auth")
                .apiKey(key + "\n") // as `proofline caller add` and operator.token end
                .build()) {
            failure(client.verify(REQUEST));
            assertEquals(List.of("Bearer " + key), authorizations);
        }
        for (String broken : List.of(
                key + "\r\nX-Injected: 1", key.substring(0, 20) + "\u00e9" + key.substring(21), key + "\u00a0", "  ")) {
            IllegalArgumentException refused = assertThrows(
                    IllegalArgumentException.class,
                    () -> ProoflineClient.builder().apiKey(broken));
            assertFalse(refused.getMessage().contains("kkkk"), refused.getMessage());
        }
    }

    @Test
    void aPublishedKeyOffTheCurveIsSkippedNotThrown() {
        try (ProoflineClient client = ProoflineClient.overRest(base())) {
            assertTrue(client.verifyOffline(receipt("v1-test")).passed());
            InvalidReceiptException refused =
                    assertThrows(InvalidReceiptException.class, () -> client.verifyOffline(receipt("off-curve")));
            assertTrue(refused.getMessage().contains("off-curve"), refused.getMessage());
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void versionsNobodyPublishedDoNotFetchTheCardForEachReceipt() throws Exception {
        try (ProoflineClient client = ProoflineClient.overRest(base())) {
            client.verifyOffline(receipt("v1-test"));
            for (int i = 0; i < 50; i++) {
                String version = "made-up-" + i;
                assertThrows(InvalidReceiptException.class, () -> client.verifyOffline(receipt(version)));
            }
            String noAttestation = "{\"result\":\"pass\"}";
            assertThrows(InvalidReceiptException.class, () -> client.verifyOffline(noAttestation));
            assertTrue(cardFetches.size() <= 3, "at most one fetch a second: " + cardFetches.size());
        }
    }

    @Test
    void anAgentCardThatCannotBeReadIsAProoflineException() throws Exception {
        cardStatus = 500;
        try (ProoflineClient client = ProoflineClient.overRest(base())) {
            ProoflineException e =
                    assertThrows(ProoflineException.class, () -> client.verifyOffline(receipt("v1-test")));
            assertEquals("agent_card_unavailable", e.code());
            assertEquals(500, e.status());
        }
    }

    @Test
    void anAnswerPastTheCapIsNotReadWhole() throws Exception {
        try (ProoflineClient client = ProoflineClient.overRest(base() + "/huge")) {
            assertEquals("answer_too_large", failure(client.verify(REQUEST)).code());
        }
    }

    @Test
    void aServerThatNeverAnswersTimesOut() throws Exception {
        try (ProoflineClient client = ProoflineClient.builder()
                .baseUrl(base() + "/silent")
                .timeout(Duration.ofMillis(500))
                .build()) {
            ProoflineException e = failure(client.verify(REQUEST));
            assertEquals("timeout", e.code());
            assertTrue(e.retryable());
        }
    }

    @Test
    void aBodyThatStopsArrivingTimesOut() throws Exception {
        try (ProoflineClient client = ProoflineClient.builder()
                .baseUrl(base() + "/trickle")
                .timeout(Duration.ofMillis(500))
                .build()) {
            assertEquals("timeout", failure(client.verify(REQUEST)).code());
        }
    }

    @Test
    void aCardThatIsDownIsAskedAtMostOnceASecond() throws Exception {
        cardStatus = 500;
        try (ProoflineClient client = ProoflineClient.overRest(base())) {
            for (int i = 0; i < 20; i++) {
                ProoflineException e =
                        assertThrows(ProoflineException.class, () -> client.verifyOffline(receipt("v1-test")));
                assertEquals("agent_card_unavailable", e.code());
            }
            assertTrue(cardFetches.size() <= 3, "at most one read a second: " + cardFetches.size());
        }
    }

    @Test
    void threadsWaitingOnASlowCardThatIsDownDoNotEachReadItAgain() throws Exception {
        AgentCardKeys keys = AgentCardKeys.of(base() + "/slow-down");
        List<Thread> askers = new java.util.ArrayList<>();
        List<String> outcomes = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 4; i++) {
            Thread asker = new Thread(() -> {
                try {
                    keys.forVersion("v1-test");
                    outcomes.add("keys");
                } catch (ProoflineException e) {
                    outcomes.add(e.code());
                }
            });
            askers.add(asker);
            asker.start();
        }
        for (Thread asker : askers) {
            asker.join(60_000);
        }
        assertEquals(
                List.of("agent_card_unavailable"), outcomes.stream().distinct().toList());
        assertEquals(4, outcomes.size());
        assertTrue(cardFetches.size() <= 2, "one slow read for all four, not one each: " + cardFetches);
    }

    @Test
    void anUnreachableServiceIsAProoflineException() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        try (ProoflineClient client = ProoflineClient.overRest("http://127.0.0.1:" + closed)) {
            ProoflineException e = failure(client.verify(REQUEST));
            assertEquals("unreachable", e.code());
            assertTrue(e.retryable());
        }
    }
}
