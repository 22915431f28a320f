package dev.proofline.engine;

import static dev.proofline.engine.EngineFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** A schema can neither reach outside the request nor hang a processor. */
class SchemaSafetyTest {
    private final EngineFixture fixture = new EngineFixture();

    @Test
    void externalRefIsAnInvalidRequestAndNoConnectionIsMade() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(200);
            AtomicInteger connections = new AtomicInteger();
            Thread acceptor = new Thread(() -> {
                while (!server.isClosed()) {
                    try (Socket ignored = server.accept()) {
                        connections.incrementAndGet();
                    } catch (SocketTimeoutException e) {
                        // keep listening
                    } catch (Exception e) {
                        return;
                    }
                }
            });
            acceptor.start();
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/x.json";
            ObjectNode error =
                    fixture.invalid(request("{\"properties\":{\"a\":{\"$ref\":\"" + url + "\"}}}", "{\"a\":1}", ""));
            assertEquals(
                    "expected_schema.properties.a.$ref",
                    error.get("fields").get(0).get("field").asString());
            ObjectNode asDialect = fixture.invalid(request("{\"$schema\":\"" + url + "\"}", "1", ""));
            assertEquals(
                    "expected_schema.$schema",
                    asDialect.get("fields").get(0).get("field").asString());
            Thread.sleep(500); // give a stray connection time to arrive
            server.close();
            acceptor.join();
            assertEquals(0, connections.get(), "the schema made Proofline connect out");
        }
    }

    @Test
    void classpathAndFileRefsAreNotLoaded() {
        for (String ref :
                new String[] {"classpath:draft/2020-12/schema", "file:///etc/passwd", "jar:file:/x.jar!/y.json"}) {
            ObjectNode error = fixture.invalid(request("{\"$ref\":\"" + ref + "\"}", "1", ""));
            assertEquals(
                    "expected_schema.$ref",
                    error.get("fields").get(0).get("field").asString(),
                    ref);
        }
    }

    @Test
    void internalRefsWork() {
        ObjectNode receipt = fixture.verify(request(
                "{\"$defs\":{\"n\":{\"type\":\"number\"}},\"properties\":{\"a\":{\"$ref\":\"#/$defs/n\"}}}",
                "{\"a\":\"x\"}",
                ""));
        assertEquals("fail", receipt.get("result").asString());
        assertEquals(
                "[\"schema:type\"]",
                receipt.get("summary").get("blocking_checks").toString());
    }

    @Test
    void catastrophicPatternRunsInLinearTime() {
        String subject = "a".repeat(39) + "!";
        assertTimeoutPreemptively(Duration.ofSeconds(1), () -> {
            ObjectNode receipt = fixture.verify(
                    request("{\"type\":\"string\",\"pattern\":\"^(.*a){12}$\"}", "\"" + subject + "\"", ""));
            assertEquals("fail", receipt.get("result").asString());
        });
    }

    @Test
    void patternsRe2CannotRunAreInvalidRequests() {
        ObjectNode error = fixture.invalid(request("{\"properties\":{\"a\":{\"pattern\":\"(?<=x)y\"}}}", "{}", ""));
        assertEquals(
                "expected_schema.properties.a.pattern",
                error.get("fields").get(0).get("field").asString());
        assertTrue(error.get("fields").get(0).get("fix").asString().contains("RE2"));
    }
}
