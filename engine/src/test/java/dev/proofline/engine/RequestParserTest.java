package dev.proofline.engine;

import static dev.proofline.engine.EngineFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Every class of invalid request of {@code docs/request.md} gets 422 with one field entry per problem. */
class RequestParserTest {
    /** Planted in values to prove errors never echo the caller's input. */
    private static final String SECRET = "s3cr3t-value";

    private final EngineFixture fixture = new EngineFixture();

    private static List<String> fields(ObjectNode error) {
        List<String> names = new ArrayList<>();
        error.get("fields").forEach(f -> names.add(f.get("field").asString()));
        return names;
    }

    private ObjectNode invalid(String json) {
        ObjectNode error = fixture.invalid(json);
        assertFalse(error.toString().contains(SECRET), "error echoes input: " + error);
        return error;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "missing task_id         | {\"expected_schema\":{},\"submitted_output\":1}                                      | task_id",
                "missing schema          | {\"task_id\":\"t\",\"submitted_output\":1}                                            | expected_schema",
                "missing output          | {\"task_id\":\"t\",\"expected_schema\":{}}                                            | submitted_output",
                "task_id not a string    | {\"task_id\":7,\"expected_schema\":{},\"submitted_output\":1}                          | task_id",
                "empty task_id           | {\"task_id\":\"\",\"expected_schema\":{},\"submitted_output\":1}                       | task_id",
                "agent_id wrong type     | {\"task_id\":\"t\",\"agent_id\":[\"s3cr3t-value\"],\"expected_schema\":{},\"submitted_output\":1} | agent_id",
                "schema not an object    | {\"task_id\":\"t\",\"expected_schema\":\"s3cr3t-value\",\"submitted_output\":1}       | expected_schema",
                "rules not a list        | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"rules\":{}}          | rules",
                "enforce_rules not bool  | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"enforce_rules\":\"yes\"} | enforce_rules",
                "strict not bool         | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"strict_content_check\":1} | strict_content_check",
                "bad detail              | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"detail\":\"short\"} | detail",
                "unknown field           | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"enforce_rule\":true} | enforce_rule",
                "rule without field      | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"rules\":[{\"type\":\"unique\"}]} | rules[0].field",
                "sum without reference   | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"rules\":[{\"type\":\"sum_equals\",\"field\":\"a\"}]} | rules[0].equals_field",
                "both references         | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"rules\":[{\"type\":\"gte\",\"field\":\"a\",\"value\":1,\"other_field\":\"b\"}]} | rules[0].other_field",
                "values not a list       | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"rules\":[{\"type\":\"exists_in\",\"field\":\"a\",\"values\":\"s3cr3t-value\"}]} | rules[0].values",
                "bad path                | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"rules\":[{\"type\":\"unique\",\"field\":\"a..b\"}]} | rules[0].field",
                "negative tolerance      | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"rules\":[{\"type\":\"unique\",\"field\":\"a\",\"tolerance\":-1}]} | rules[0].tolerance",
                "unknown rule field      | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"rules\":[{\"type\":\"unique\",\"field\":\"a\",\"equal\":1}]} | rules[0].equal",
                "bound without limits    | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"bounds\":{\"a\":{}}} | bounds[\"a\"]",
                "bound min above max     | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"bounds\":{\"a\":{\"min\":2,\"max\":1}}} | bounds[\"a\"].min",
                "invalid schema          | {\"task_id\":\"t\",\"expected_schema\":{\"type\":\"s3cr3t-value\"},\"submitted_output\":1} | expected_schema.type",
                "unknown dialect         | {\"task_id\":\"t\",\"expected_schema\":{\"$schema\":\"http://example.com/s3cr3t-value\"},\"submitted_output\":1} | expected_schema.$schema",
                "lone surrogate          | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":{\"a\":\"\\ud800\"}}   | submitted_output.a",
                "lone surrogate in id    | {\"task_id\":\"\\udc00\",\"expected_schema\":{},\"submitted_output\":1}               | task_id",
                "number out of range     | {\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":[1E400]}               | submitted_output[0]",
                "not an object           | [1,2]                                                                                | body",
                "not JSON                | {\"task_id\": s3cr3t-value                                                            | body",
            })
    void eachInvalidClassNamesItsField(String name, String json, String field) {
        ObjectNode error = invalid(json);
        assertEquals("invalid_request", error.get("code").asString());
        assertEquals(422, error.get("status").asInt());
        assertFalse(error.get("retryable").asBoolean());
        assertFalse(error.get("charged").asBoolean());
        assertTrue(fields(error).contains(field), name + ": " + fields(error));
        JsonNode action = error.get("next_actions").get(0);
        assertEquals("fix_request_fields", action.get("action").asString());
        error.get("fields").forEach(f -> assertFalse(f.get("fix").asString().isBlank()));
    }

    @Test
    void unknownRuleTypeGetsTheDocumentedFix() {
        ObjectNode error = invalid(request("{}", "1", "\"rules\":[{\"type\":\"s3cr3t-value\",\"field\":\"a\"}]"));
        JsonNode f = error.get("fields").get(0);
        assertEquals("rules[0].type", f.get("field").asString());
        assertEquals("is not one of the allowed values", f.get("problem").asString());
        assertEquals(
                "Use one of: 'sum_equals', 'gte', 'lte', 'exists_in' or 'unique'.",
                f.get("fix").asString());
        assertEquals(
                "[\"rules[0].type\"]",
                error.get("next_actions").get(0).get("fields").toString());
    }

    @Test
    void idOverTwoHundredCharactersIsRefused() {
        String longId = "x".repeat(201);
        assertEquals(
                List.of("task_id"),
                fields(invalid("{\"task_id\":\"" + longId + "\",\"expected_schema\":{},\"submitted_output\":1}")));
        String ok = "x".repeat(200);
        assertTrue(
                fixture.parse("{\"task_id\":\"" + ok + "\",\"expected_schema\":{},\"submitted_output\":1}")
                        instanceof ParseOutcome.Valid);
        // Characters are code points, as JSON Schema's maxLength counts them: 200 emoji are 400 UTF-16 units.
        String emoji = "\uD83D\uDE00";
        assertTrue(
                fixture.parse("{\"task_id\":\"" + emoji.repeat(200)
                                + "\",\"expected_schema\":{},\"submitted_output\":1}")
                        instanceof ParseOutcome.Valid);
        assertEquals(
                List.of("task_id"),
                fields(invalid(
                        "{\"task_id\":\"" + emoji.repeat(201) + "\",\"expected_schema\":{},\"submitted_output\":1}")));
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        ObjectNode error = invalid("{\"task_id\":1,\"agent_id\":2,\"submitted_output\":1,"
                + "\"rules\":[{\"type\":\"x\",\"field\":\"a\"},{\"type\":\"unique\"}]}");
        assertEquals(
                List.of("task_id", "agent_id", "expected_schema", "rules[0].type", "rules[1].field"), fields(error));
        assertEquals(
                "The request is invalid: task_id is not a string; agent_id is not a string; expected_schema is"
                        + " required; and 2 more (see fields). Nothing was charged; fix the field(s) and send it again.",
                error.get("message").asString());
    }

    @Test
    void oversizeRequestIs413StatingTheLimit() {
        String big = request("{}", "\"" + "a".repeat(1024 * 1024) + "\"", "");
        ObjectNode error = fixture.invalid(big);
        assertEquals("payload_too_large", error.get("code").asString());
        assertEquals(413, error.get("status").asInt());
        assertTrue(error.get("message").asString().contains("the limit is 1048576 bytes"), error.toString());
    }

    @Test
    void nullOutputIsAValidOutput() {
        assertTrue(fixture.parse(request("{\"type\":\"null\"}", "null", "")) instanceof ParseOutcome.Valid);
    }
}
