package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.proofline.attestor.CanonicalJsonException;
import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.StrictJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * A request whose schema was seen before means exactly what it would mean if read afresh: the same
 * hashes, the same receipt bytes, and for a broken body the same error, word for word.
 */
class RepeatedSchemasTest {
    private static final String KEPT = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}}}";

    private final EngineFixture fixture = new EngineFixture();
    private final RequestParser parser = fixture.engine.parser();
    /** Reads every request afresh, as before schemas were kept: the tree first, then its checks. */
    private final RequestParser afresh = new EngineFixture().engine.parser();

    @Test
    void conformanceRequestsGiveTheSameReceiptsWhenTheirSchemaIsReused() throws IOException {
        List<Path> requests;
        try (Stream<Path> files = Files.list(Conformance.dir().resolve("requests"))) {
            requests = files.sorted().toList();
        }
        for (Path file : requests) {
            byte[] body = Files.readAllBytes(file);
            parser.parse(body); // first sight: kept
            long reusedBefore = parser.schemasReused();
            VerificationRequest reused = ((ParseOutcome.Valid) parser.parse(body)).request();
            // Only plain ASCII bodies are read as a stream (the rest are decoded strictly first).
            assertEquals(
                    reusedBefore + (StrictJson.isPlainAscii(body) ? 1 : 0), parser.schemasReused(), file.toString());
            VerificationRequest fresh = ((ParseOutcome.Valid) afresh.parse(StrictJson.parse(body))).request();
            assertEquals(fresh.hashes(), reused.hashes(), file.toString());
            assertEquals(fresh.expectedSchema(), reused.expectedSchema(), file.toString());
            assertEquals(
                    fixture.engine
                            .verify(fresh, EngineFixture.ID, EngineFixture.AT)
                            .json(),
                    fixture.engine
                            .verify(reused, EngineFixture.ID, EngineFixture.AT)
                            .json(),
                    file.toString());
        }
    }

    @Test
    void aKeptSchemaIsTheSameTreeAndAnInvalidOneIsNotKept() {
        String body = EngineFixture.request(KEPT, "{\"a\":1}", "");
        JsonNode first = valid(parser.parse(bytes(body))).expectedSchema();
        assertSame(first, valid(parser.parse(bytes(body))).expectedSchema());
        long reusedOnce = parser.schemasReused();
        parser.parse(bytes(body + " x")); // read again afresh, to say what is wrong: no reuse
        assertEquals(reusedOnce, parser.schemasReused());

        String invalidSchema = EngineFixture.request("{\"type\":\"no-such-type\"}", "1", "");
        long reused = parser.schemasReused();
        parser.parse(bytes(invalidSchema));
        parser.parse(bytes(invalidSchema));
        assertEquals(reused, parser.schemasReused(), "a schema that does not compile is read afresh each time");
    }

    @Test
    void aSchemaLargerThanTheLimitIsNotKept() {
        StringBuilder schema = new StringBuilder("{\"type\":\"object\",\"description\":\"");
        schema.append("x".repeat(RepeatedSchemas.MAX_SCHEMA_BYTES));
        schema.append("\"}");
        String body = EngineFixture.request(schema.toString(), "{}", "");
        parser.parse(bytes(body));
        long reused = parser.schemasReused();
        assertEquals(afreshView(bytes(body)), view(parser.parse(bytes(body))));
        assertEquals(reused, parser.schemasReused());
    }

    /** Bodies around the kept schema, good and broken; each read twice, so the second read may reuse it. */
    static Stream<String> bodies() {
        String ok = EngineFixture.request(KEPT, "{\"a\":1}", "");
        String deep = "[".repeat(StrictJson.MAX_NESTING_DEPTH) + "]".repeat(StrictJson.MAX_NESTING_DEPTH);
        return Stream.of(
                ok,
                " \n\t" + ok + "\r\n ",
                EngineFixture.request(KEPT, "{\"a\":\"not a number\"}", ""),
                EngineFixture.request(KEPT, "[1.0, 1e2, -0, 12345678901234567890, 0.1, 1E-7]", ""),
                EngineFixture.request(KEPT, "{\"a\":1}", "\"rules\":null,\"bounds\":null,\"detail\":\"compact\""),
                "{\"task_id\":\"t\",\"agent_id\":null,\"expected_schema\":" + KEPT + ",\"submitted_output\":null}",
                "{\"submitted_output\":{\"a\":2},\"expected_schema\":" + KEPT + ",\"task_id\":\"t\"}",
                // broken around a kept schema
                ok.replace("\"task_id\":\"t-1\"", "\"task_id\":\"t-1\",\"task_id\":\"t-2\""),
                "{\"task_id\":\"t\",\"expected_schema\":" + KEPT + ",\"expected_schema\":" + KEPT
                        + ",\"submitted_output\":1}",
                ok + " x",
                ok + "{}",
                ok.substring(0, ok.length() - 1),
                ok.substring(0, ok.indexOf(KEPT) + KEPT.length()),
                ok.replace("\"agent_id\":\"agent-1\"", "\"agent_id\":\"agent-\u00e9\""),
                ok.replace("{\"a\":1}", "{\"a\":\"\u00e9\"}"),
                ok.replace("{\"a\":1}", "{\"a\":\"\u0000\"}"),
                ok.replace("\"t-1\"", "\"t\u0000\""),
                ok.replace("{\"a\":1}", deep),
                ok.replace("{\"a\":1}", "[" + deep + "]"),
                ok.replace("{\"a\":1}", "\"\\ud800\""),
                ok.replace("{\"a\":1}", "1e400"),
                // broken or odd schemas
                EngineFixture.request("{\"type\":\"object\",\"type\":\"array\"}", "1", ""),
                EngineFixture.request("{\"type\":\"object\",\"description\":\"\\udc00\"}", "1", ""),
                EngineFixture.request("{\"type\":\"object\",\"maximum\":1e400}", "1", ""),
                EngineFixture.request("{\"items\":" + deep + "}", "1", ""),
                EngineFixture.request("{\"not\":{\"items\":[" + deep + "]}}", "1", ""),
                EngineFixture.request("true", "1", ""),
                EngineFixture.request("[" + KEPT + "]", "1", ""),
                EngineFixture.request("{\"type\":\"object\"", "1", ""),
                EngineFixture.request("{\"type\":\"obj\\ect\"}", "1", ""),
                EngineFixture.request("{\"type\":'object'}", "1", ""),
                // not an object, or not JSON
                "[" + ok + "]",
                "\"" + KEPT.replace("\"", "\\\"") + "\"",
                "",
                "   ",
                "null",
                "{}",
                "{\"expected_schema\":" + KEPT + "}");
    }

    @ParameterizedTest
    @MethodSource("bodies")
    void everyBodyMeansWhatItMeansAfresh(String text) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        parser.parse(bytes(EngineFixture.request(KEPT, "1", ""))); // KEPT is kept from here on
        String afreshView = afreshView(body);
        assertEquals(afreshView, view(parser.parse(body)), "first read");
        assertEquals(afreshView, view(parser.parse(body)), "second read");
    }

    /** What a request meant before schemas were kept: {@link StrictJson#parse}, then the checks. */
    private String afreshView(byte[] body) {
        JsonNode tree;
        try {
            tree = StrictJson.parse(body);
        } catch (CanonicalJsonException e) {
            return "invalid body: is " + e.getMessage();
        }
        return view(afresh.parse(tree));
    }

    private static String view(ParseOutcome outcome) {
        if (outcome instanceof ParseOutcome.Valid valid) {
            return "valid " + valid.request().hashes() + " " + valid.request().expectedSchema();
        }
        StringBuilder problems = new StringBuilder("invalid");
        for (JsonNode field : ((ParseOutcome.Invalid) outcome).error().toJson().path("fields")) {
            problems.append(' ')
                    .append(field.path("field").asString())
                    .append(": ")
                    .append(field.path("problem").asString());
        }
        return problems.toString();
    }

    private static VerificationRequest valid(ParseOutcome outcome) {
        return ((ParseOutcome.Valid) outcome).request();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
