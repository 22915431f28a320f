package dev.proofline.engine;

import static dev.proofline.engine.EngineFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.StrictJson;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON Schema as a verification service promises it, checked with cases written for this project
 * ({@code json-schema-conformance.json} beside this class): every format of draft 2020-12 asserted
 * with its RFC's meaning, boolean schemas wherever a schema may stand, the bundled meta-schemas by
 * reference, and patterns with ECMA-262 meaning on a linear-time engine.
 */
class JsonSchemaConformanceTest {
    private final EngineFixture fixture = new EngineFixture();

    private static JsonNode cases() throws Exception {
        try (InputStream in = JsonSchemaConformanceTest.class.getResourceAsStream("json-schema-conformance.json")) {
            return StrictJson.parse(in);
        }
    }

    private String verdict(EngineFixture engine, String schema, JsonNode output) {
        ObjectNode request = (ObjectNode) StrictJson.parse(request(schema, "null", ""));
        request.set("submitted_output", output);
        return engine.verify(request).get("result").asString();
    }

    private String verdict(String schema, String output) {
        return fixture.verify(request(schema, output, "")).get("result").asString();
    }

    @Test
    void everyFormatIsAssertedWithItsRfcMeaning() throws Exception {
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (var format : cases().get("formats").properties()) {
            String schema = "{\"type\":\"string\",\"format\":\"" + format.getKey() + "\"}";
            for (String expectation : List.of("valid", "invalid")) {
                for (JsonNode example : format.getValue().get(expectation)) {
                    String want = expectation.equals("valid") ? "pass" : "fail";
                    checked++;
                    if (!verdict(fixture, schema, example).equals(want)) {
                        wrong.add(format.getKey() + " " + example + " should " + want);
                    }
                }
            }
        }
        assertTrue(checked > 150, "every format has examples: " + checked);
        assertEquals(List.of(), wrong);
    }

    @Test
    void formatOnlyAppliesToStringsAndUnknownFormatsPass() {
        assertEquals("pass", verdict("{\"format\":\"date\"}", "12"));
        assertEquals("pass", verdict("{\"format\":\"not-a-format-anyone-knows\"}", "\"anything\""));
    }

    @Test
    void overLongValuesFailEveryFormatBeforeAnyCheckRuns() {
        // A megabyte of spaces is the worst case of the library's backtracking e-mail expression.
        String spaces = "\"" + " ".repeat(1_000_000) + "\"";
        for (String format : List.of("email", "idn-email", "uri", "hostname", "date-time", "regex")) {
            assertEquals("fail", verdict("{\"format\":\"" + format + "\"}", spaces), format);
        }
        String longestPointer = "\"/" + "a".repeat(StrictFormats.MAX_FORMATTED_LENGTH - 1) + "\"";
        assertEquals("pass", verdict("{\"format\":\"json-pointer\"}", longestPointer));
    }

    @Test
    void longValuesOfEveryShapeGetAVerdictFromEveryFormat() throws Exception {
        // Backtracking expressions recurse per repetition: a long value must neither overflow the
        // stack nor take quadratic time. Every shape here is just under the length limit.
        List<String> shapes = List.of("a.", "/a", "{a}", "%41", "a@", "1:", "\\\"", "P1", "xn--a.");
        for (var format : cases().get("formats").properties()) {
            for (String shape : shapes) {
                String value = shape.repeat(StrictFormats.MAX_FORMATTED_LENGTH / shape.length() - 1);
                String result = verdict(
                        fixture, "{\"format\":\"" + format.getKey() + "\"}", StrictJson.NODES.stringNode(value));
                assertTrue(result.equals("pass") || result.equals("fail"), format.getKey() + " " + shape);
            }
        }
    }

    @Test
    void aDeploymentMayKeepFormatAsAnAnnotation() {
        EngineFixture annotating = new EngineFixture(EngineSettings.defaults().withFormatAssertion(false));
        String schema = "{\"type\":\"string\",\"format\":\"date\"}";
        assertEquals("pass", verdict(annotating, schema, StrictJson.parse("\"2026-13-45\"")));
        assertEquals("fail", verdict(fixture, schema, StrictJson.parse("\"2026-13-45\"")));
        JsonNode hint = fixture.verify(request(schema, "\"2026-13-45\"", ""))
                .get("hints")
                .get(0);
        assertEquals("schema:format", hint.get("check").asString());
        assertEquals("format date", hint.get("expected").asString());
    }

    @Test
    void booleanSchemasStandWhereverASchemaMay() {
        assertEquals("pass", verdict("true", "{\"anything\":[1,2]}"));
        assertEquals("fail", verdict("false", "1"));
        assertEquals("pass", verdict("{\"properties\":{\"a\":true,\"b\":false}}", "{\"a\":1}"));
        assertEquals("fail", verdict("{\"properties\":{\"a\":true,\"b\":false}}", "{\"b\":1}"));
        assertEquals("fail", verdict("{\"items\":false}", "[1]"));
        assertEquals("pass", verdict("{\"items\":false}", "[]"));
        assertEquals("fail", verdict("{\"allOf\":[true,false]}", "\"x\""));
        assertEquals("pass", verdict("{\"anyOf\":[false,true]}", "\"x\""));
        ObjectNode fail = fixture.verify(request("false", "1", ""));
        assertEquals(
                "0/1",
                fail.get("schema_compliance").get("passed").asInt() + "/"
                        + fail.get("schema_compliance").get("total").asInt());
    }

    @Test
    void theStandardMetaSchemasResolveFromTheBundledCopies() {
        for (String metaSchema : List.of(
                "https://json-schema.org/draft/2020-12/schema",
                "https://json-schema.org/draft/2019-09/schema",
                "http://json-schema.org/draft-07/schema#")) {
            String schema = "{\"$ref\":\"" + metaSchema + "\"}";
            assertEquals("pass", verdict(schema, "{\"type\":\"string\",\"minLength\":1}"), metaSchema);
            assertEquals("fail", verdict(schema, "{\"minLength\":-1}"), metaSchema);
        }
        assertEquals(
                "pass",
                verdict(
                        "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"properties\":{\"s\":"
                                + "{\"$ref\":\"https://json-schema.org/draft/2020-12/schema\"}}}",
                        "{\"s\":true}"));
        JsonNode refused = fixture.invalid(request("{\"$ref\":\"https://example.com/schema\"}", "1", ""));
        assertEquals("invalid_request", refused.get("code").asString(), "any other external reference is refused");
    }

    @Test
    void patternsHaveTheirEcmaScriptMeaning() {
        // \s is ECMA-262's white space: NBSP, BOM, em space, line separator...
        for (String space : List.of("\\u00a0", "\\ufeff", "\\u2003", "\\u2028", "\\u3000", "\\u000b")) {
            assertEquals("pass", verdict("{\"pattern\":\"^\\\\s$\"}", "\"" + space + "\""), space);
            assertEquals("fail", verdict("{\"pattern\":\"^\\\\S$\"}", "\"" + space + "\""), space);
        }
        assertEquals("pass", verdict("{\"pattern\":\"^\\\\p{Letter}+$\"}", "\"héllo\u03bb\""));
        assertEquals("fail", verdict("{\"pattern\":\"^\\\\p{Letter}+$\"}", "\"a1\""));
        assertEquals("pass", verdict("{\"pattern\":\"^\\\\p{digit}+$\"}", "\"42\u0664\""));
        assertEquals("pass", verdict("{\"pattern\":\"^\\\\p{Script=Greek}+$\"}", "\"\u03b1\u03b2\""));
        assertEquals(
                "pass",
                verdict("{\"pattern\":\"^\\\\p{Greek}+$\"}", "\"\u03b1\u03b2\""),
                "a lone script name, as RE2 takes it");
        assertEquals("pass", verdict("{\"pattern\":\"^\\\\cC$\"}", "\"\\u0003\""));
        assertEquals("fail", verdict("{\"pattern\":\"^\\\\d$\"}", "\"\u0664\""), "\\d is ASCII in ECMA-262");
        assertEquals("fail", verdict("{\"pattern\":\"^a.b$\"}", "\"a\\u2028b\""), ". stops at line terminators");
        assertEquals("pass", verdict("{\"pattern\":\"^[\\\\S]+$\"}", "\"ab\""));
        assertEquals("pass", verdict("{\"pattern\":\"^[^\\\\S]$\"}", "\"\\u00a0\""));
        assertEquals("pass", verdict("{\"pattern\":\"^\\\\u00e9$\"}", "\"é\""));
        assertEquals("pass", verdict("{\"pattern\":\"^\\\\ud83d\\\\ude00$\"}", "\"\ud83d\ude00\""));
        assertEquals("pass", verdict("{\"pattern\":\"^(?<y>\\\\d{4})$\"}", "\"2026\""));
        assertEquals("pass", verdict("{\"patternProperties\":{\"^\\\\p{Lu}\":{\"type\":\"integer\"}}}", "{\"Ä\":1}"));
        assertEquals(
                "fail", verdict("{\"patternProperties\":{\"^\\\\p{Lu}\":{\"type\":\"integer\"}}}", "{\"Ä\":\"x\"}"));
    }

    @Test
    void hostilePatternsAreRefusedBeforeTheyCanExhaustMemoryOrStack() {
        // RE2/J expands counted repetitions and parses groups recursively, with no limits of its own.
        String nested = "((a{1000}){1000}){1000}";
        String deep = "(".repeat(20_000) + "a" + ")".repeat(20_000);
        for (String pattern : List.of(nested, deep, "(?:a{1000}){2}", "a{1001}")) {
            JsonNode error = fixture.invalid(request("{\"pattern\":\"" + pattern + "\"}", "\"a\"", ""));
            assertEquals(
                    "invalid_request",
                    error.get("code").asString(),
                    pattern.substring(0, Math.min(10, pattern.length())));
            assertEquals(
                    "fail", verdict("{\"format\":\"regex\"}", "\"" + pattern + "\""), "a format check refuses it too");
        }
        assertEquals("pass", verdict("{\"pattern\":\"^(?:a{10}){100}$\"}", "\"" + "a".repeat(1000) + "\""));
    }

    @Test
    void patternEdgesKeepTheirEcmaScriptMeaning() {
        assertEquals(
                "pass", verdict("{\"pattern\":\"^[^\\\\S\\\\n]+$\"}", "\" \\u00a0\\t\""), "white space but newline");
        assertEquals("fail", verdict("{\"pattern\":\"^[^\\\\S\\\\n]+$\"}", "\" \\n\""));
        assertEquals("pass", verdict("{\"pattern\":\"^\\\\p{C}$\"}", "\"\\u0378\""), "C includes unassigned");
        assertEquals("pass", verdict("{\"pattern\":\"^\\\\p{Cn}$\"}", "\"\\u0378\""));
        assertEquals("fail", verdict("{\"pattern\":\"^\\\\p{Cn}$\"}", "\"a\""));
        for (String refused : List.of("\\\\p{scx=Hiragana}", "[\\\\s-\\\\uFFFF]", "\\\\u{+41}", "\\\\p{sc=^Greek}")) {
            assertEquals(
                    "invalid_request",
                    fixture.invalid(request("{\"pattern\":\"" + refused + "\"}", "\"a\"", ""))
                            .get("code")
                            .asString(),
                    refused);
        }
    }

    @Test
    void aPatternWithoutALinearTimeFormIsRefusedSayingSo() {
        for (String nonLinear : List.of("(?=a)b", "(?!a)b", "(?<=a)b", "(?<!a)b", "(a)\\\\1", "(?<n>a)\\\\k<n>")) {
            JsonNode error = fixture.invalid(request("{\"pattern\":\"" + nonLinear + "\"}", "\"x\"", ""));
            String problem = error.get("fields").get(0).get("problem").asString();
            assertTrue(problem.contains("cannot run in linear time"), nonLinear + ": " + problem);
            assertEquals(
                    "expected_schema.pattern",
                    error.get("fields").get(0).get("field").asString());
        }
        JsonNode invalid = fixture.invalid(request("{\"pattern\":\"\\\\a\"}", "\"x\"", ""));
        assertTrue(
                invalid.get("fields").get(0).get("problem").asString().contains("not a valid ECMA-262"),
                invalid.toString());
        JsonNode property = fixture.invalid(request("{\"pattern\":\"\\\\p{Emoji}\"}", "\"x\"", ""));
        assertTrue(property.get("fields").get(0).get("problem").asString().contains("\\p{Emoji}"), property.toString());
    }

    @Test
    void schemasWithoutFormatCountTheSameChecks() {
        // The conformance invoice's 22 schema checks (ConformanceInvoiceTest) come from keywords other
        // than format; a format adds exactly one check where it applies.
        ObjectNode plain = fixture.verify(request("{\"type\":\"string\"}", "\"2026-11-30\"", ""));
        ObjectNode dated = fixture.verify(request("{\"type\":\"string\",\"format\":\"date\"}", "\"2026-11-30\"", ""));
        assertEquals(1, plain.get("schema_compliance").get("total").asInt());
        assertEquals(2, dated.get("schema_compliance").get("total").asInt());
    }
}
