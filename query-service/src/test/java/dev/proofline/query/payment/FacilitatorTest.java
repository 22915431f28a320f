package dev.proofline.query.payment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpServer;
import dev.proofline.attestor.StrictJson;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** What a facilitator's answer means: a verdict only when it carries one, whatever its status. */
class FacilitatorTest {
    private HttpServer server;
    private final AtomicInteger status = new AtomicInteger();
    private final AtomicReference<String> body = new AtomicReference<>();
    private Facilitator facilitator;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] answer = body.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status.get(), answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        facilitator = new Facilitator("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void answer(int code, String json) {
        status.set(code);
        body.set(json);
    }

    @Test
    void aRefusalWithItsVerdictIsTheFacilitatorsAnswer() throws Exception {
        answer(400, "{\"isValid\":false,\"invalidReason\":\"invalid_exact_evm_payload_signature\"}");
        assertEquals(
                "invalid_exact_evm_payload_signature",
                facilitator.verify(payload(), payload()).get("invalidReason").asString());
        answer(200, "{\"success\":false,\"errorReason\":\"insufficient_funds\",\"transaction\":\"\"}");
        assertEquals(
                false, facilitator.settle(payload(), payload()).get("success").asBoolean());
    }

    /** A 401 for a missing facilitator key, or a proxy's error in JSON, says nothing about the payment. */
    @Test
    void anAnswerWithoutAVerdictIsTheFacilitatorUnavailable() {
        for (int code : new int[] {200, 401, 403, 404, 429}) {
            answer(code, "{\"error\":\"x\"}");
            assertThrows(Facilitator.Unavailable.class, () -> facilitator.verify(payload(), payload()), "" + code);
            assertThrows(Facilitator.Unavailable.class, () -> facilitator.settle(payload(), payload()), "" + code);
        }
        answer(200, "{\"isValid\":\"yes\"}");
        assertThrows(Facilitator.Unavailable.class, () -> facilitator.verify(payload(), payload()));
        answer(200, "{\"success\":1}");
        assertThrows(Facilitator.Unavailable.class, () -> facilitator.settle(payload(), payload()));
    }

    private static ObjectNode payload() {
        return StrictJson.NODES.objectNode();
    }
}
