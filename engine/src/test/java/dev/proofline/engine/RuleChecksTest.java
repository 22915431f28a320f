package dev.proofline.engine;

import static dev.proofline.engine.EngineFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Every rule type and bound, passing and failing, and every path form. */
class RuleChecksTest {
    private static final String ANY = "{}";
    private final EngineFixture fixture = new EngineFixture();

    private ObjectNode run(String output, String rulesAndFlags) {
        return fixture.verify(request(ANY, output, rulesAndFlags));
    }

    private static String result(ObjectNode receipt) {
        return receipt.get("result").asString();
    }

    private static String integrity(ObjectNode receipt) {
        JsonNode i = receipt.get("integrity_checks");
        return i.get("passed").asInt() + "/" + i.get("total").asInt();
    }

    private static JsonNode hint(ObjectNode receipt, int index) {
        return receipt.get("hints").get(index);
    }

    @Test
    void sumEqualsAgainstAFieldAndAConstantWithTolerance() {
        String output = "{\"items\":[{\"p\":10},{\"p\":20.5}],\"total\":30.5}";
        ObjectNode pass = run(
                output,
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"sum_equals\",\"field\":\"items[].p\",\"equals_field\":\"total\"}]");
        assertEquals("pass", result(pass));
        assertEquals("6/6", integrity(pass)); // 2 values + comparison + 3 numbers
        ObjectNode constant = run(
                output,
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"sum_equals\",\"field\":\"items[].p\",\"equals\":30}]");
        assertEquals("fail", result(constant));
        assertEquals("sum 30.5", hint(constant, 0).get("found").asString());
        assertEquals("a sum equal to 30", hint(constant, 0).get("expected").asString());
        ObjectNode tolerant = run(
                output,
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"sum_equals\",\"field\":\"items[].p\",\"equals\":30,\"tolerance\":0.5}]");
        assertEquals("pass", result(tolerant));
    }

    @Test
    void sumOfIntegersPrintsAsAnInteger() {
        ObjectNode r = run(
                "{\"a\":[1,2],\"t\":4}",
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"sum_equals\",\"field\":\"a[]\",\"equals_field\":\"t\"}]");
        assertEquals(
                "values sum to 3, expected t (4)",
                r.get("flags").get(0).get("detail").asString());
    }

    @Test
    void sumPrintsAtThePrecisionOfItsTermsNotWithABinaryTail() {
        // 0.1 + 0.2 + 1.1 is 1.4000000000000001 in binary; the caller wrote one decimal.
        ObjectNode r = run(
                "{\"a\":[0.1,0.2,1.1],\"t\":1.5}",
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"sum_equals\",\"field\":\"a[]\",\"equals_field\":\"t\"}]");
        assertEquals(
                "values sum to 1.4, expected t (1.5)",
                r.get("flags").get(0).get("detail").asString());
        ObjectNode mixed = run(
                "{\"a\":[1000,920.95],\"t\":1934.74}",
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"sum_equals\",\"field\":\"a[]\",\"equals_field\":\"t\"}]");
        assertEquals("sum 1920.95", hint(mixed, 0).get("found").asString());
    }

    /** A sum that misses by less than its terms' precision shows every digit: the message says why. */
    @Test
    void aSumThatReadsAsTheNumberItMissedShowsEveryDigit() {
        ObjectNode r = run(
                "{\"a\":[0.1,0.2],\"t\":0.3}",
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"sum_equals\",\"field\":\"a[]\",\"equals_field\":\"t\","
                        + "\"tolerance\":0}]");
        assertEquals(
                "values sum to 0.30000000000000004, expected t (0.3)",
                r.get("flags").get(0).get("detail").asString());
    }

    @Test
    void boundsPrintAsTheCallerWroteThem() {
        ObjectNode r = run("{\"p\":-1.5}", "\"enforce_rules\":true,\"bounds\":{\"p\":{\"min\":0,\"max\":2.50}}");
        assertEquals(
                "value -1.5 is below the minimum 0",
                r.get("flags").get(0).get("detail").asString());
        ObjectNode high = run("{\"p\":3}", "\"enforce_rules\":true,\"bounds\":{\"p\":{\"max\":2.50}}");
        assertEquals("<= 2.5", hint(high, 0).get("expected").asString());
    }

    @Test
    void gteAndLteAgainstAConstantAndAnotherField() {
        String output = "{\"items\":[{\"p\":5},{\"p\":-1}],\"floor\":0,\"cap\":4}";
        ObjectNode gte = run(
                output, "\"enforce_rules\":true,\"rules\":[{\"type\":\"gte\",\"field\":\"items[].p\",\"value\":0}]");
        assertEquals("fail", result(gte));
        assertEquals("$.items[1].p", hint(gte, 0).get("path").asString());
        assertEquals(">= 0", hint(gte, 0).get("expected").asString());
        assertEquals("-1", hint(gte, 0).get("found").asString());
        ObjectNode lte = run(
                output,
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"lte\",\"field\":\"items[].p\",\"other_field\":\"cap\"}]");
        assertEquals("$.items[0].p", hint(lte, 0).get("path").asString());
        assertEquals("<= cap (4)", hint(lte, 0).get("expected").asString());
        ObjectNode ok = run(
                output,
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"gte\",\"field\":\"items[].p\",\"other_field\":\"floor\",\"tolerance\":1}]");
        assertEquals("pass", result(ok));
    }

    @Test
    void existsInAFieldAndInAConstantList() {
        String output = "{\"lines\":[{\"sku\":\"A\"},{\"sku\":\"Z\"}],\"catalog\":[{\"sku\":\"A\"},{\"sku\":\"B\"}]}";
        ObjectNode field = run(
                output,
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"exists_in\",\"field\":\"lines[].sku\",\"in_field\":\"catalog[].sku\"}]");
        assertEquals("fail", result(field));
        assertEquals("$.lines[1].sku", hint(field, 0).get("path").asString());
        assertEquals("'Z'", hint(field, 0).get("found").asString());
        ObjectNode list = run(
                output,
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"exists_in\",\"field\":\"lines[].sku\",\"values\":[\"A\",\"Z\"]}]");
        assertEquals("pass", result(list));
    }

    @Test
    void existsInAnArrayValuedFieldMeansAnyOfItsElements() {
        String output = "{\"pet\":\"cat\",\"pets\":[\"dog\",\"fish\"],\"cats\":[\"cat\",\"lynx\"]}";
        String rule =
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"exists_in\",\"field\":\"%s\",\"in_field\":\"cats\"}]";
        assertEquals("pass", result(run(output, rule.formatted("pet"))));
        ObjectNode r = run(output, rule.formatted("pets[]"));
        assertEquals("fail", result(r));
        assertEquals("'dog'", hint(r, 0).get("found").asString());
        assertEquals("fail", result(run(output, rule.formatted("pets"))), "an array is not one of the elements");
    }

    @Test
    void uniqueComparesJsonValuesSoOneAndOnePointZeroCollide() {
        ObjectNode r = run(
                "{\"ids\":[1,2,1.0]}", "\"enforce_rules\":true,\"rules\":[{\"type\":\"unique\",\"field\":\"ids[]\"}]");
        assertEquals("fail", result(r));
        assertEquals("$.ids[2]", hint(r, 0).get("path").asString());
        assertEquals(
                "duplicate 1.0 (first at $.ids[0])", hint(r, 0).get("found").asString());
        assertEquals(
                "pass",
                result(run(
                        "{\"ids\":[\"a\",\"b\"]}",
                        "\"enforce_rules\":true,\"rules\":[{\"type\":\"unique\",\"field\":\"ids[]\"}]")));
    }

    @Test
    void missingFieldFailsUnlessIfPresent() {
        String rule = "{\"type\":\"gte\",\"field\":\"nope[].x\",\"value\":0%s}";
        ObjectNode missing = run("{}", "\"enforce_rules\":true,\"rules\":[" + rule.formatted("") + "]");
        assertEquals("fail", result(missing));
        assertEquals(
                "no value at 'nope[].x'",
                missing.get("flags").get(0).get("detail").asString());
        ObjectNode skipped =
                run("{}", "\"enforce_rules\":true,\"rules\":[" + rule.formatted(",\"if_present\":true") + "]");
        assertEquals("pass", result(skipped));
        assertEquals("0/0", integrity(skipped));
    }

    @Test
    void unenforcedFailuresAreWarningsAndDoNotFailTheResult() {
        ObjectNode r = run(
                "{\"a\":[1],\"t\":2}",
                "\"rules\":[{\"type\":\"sum_equals\",\"field\":\"a[]\",\"equals_field\":\"t\"}]");
        assertEquals("pass", result(r));
        assertEquals("warning", r.get("flags").get(0).get("severity").asString());
        assertEquals(0, r.get("errors_total").asInt());
        assertEquals(1, r.get("hints_total").asInt());
        assertEquals("3/4", integrity(r));
    }

    @Test
    void nestedAndTopLevelArrayPaths() {
        String output = "{\"a\":{\"b\":[{\"c\":[{\"d\":1},{\"d\":2}]},{\"c\":[{\"d\":3}]}]}}";
        ObjectNode nested = run(
                output, "\"enforce_rules\":true,\"rules\":[{\"type\":\"lte\",\"field\":\"a.b[].c[].d\",\"value\":2}]");
        assertEquals("$.a.b[1].c[0].d", hint(nested, 0).get("path").asString());
        ObjectNode top = run(
                "[{\"x\":1},{\"x\":1}]", "\"enforce_rules\":true,\"rules\":[{\"type\":\"unique\",\"field\":\"[].x\"}]");
        assertEquals("$[1].x", hint(top, 0).get("path").asString());
        ObjectNode matrix = run(
                "{\"m\":[[1,2],[3,40]]}",
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"lte\",\"field\":\"m[][]\",\"value\":10}]");
        assertEquals("$.m[1][1]", hint(matrix, 0).get("path").asString());
    }

    @Test
    void boundsCheckEveryNumberInclusively() {
        String output = "{\"items\":[{\"price\":0},{\"price\":100},{\"price\":100.5},{\"price\":\"free\"}]}";
        ObjectNode r = run(output, "\"enforce_rules\":true,\"bounds\":{\"items[].price\":{\"min\":0,\"max\":100}}");
        assertEquals("fail", result(r));
        assertEquals(
                "[\"bounds:max\",\"bounds:min\"]",
                r.get("summary").get("blocking_checks").toString());
        assertEquals("$.items[2].price", hint(r, 0).get("path").asString());
        assertEquals("<= 100", hint(r, 0).get("expected").asString(), "the bound as the caller wrote it");
        ObjectNode absent = run("{}", "\"enforce_rules\":true,\"bounds\":{\"x\":{\"max\":1,\"if_present\":true}}");
        assertEquals("pass", result(absent));
    }

    @Test
    void referenceThatSelectsNothingIsOneFailedCheck() {
        ObjectNode r = run(
                "{\"a\":[1]}",
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"sum_equals\",\"field\":\"a[]\",\"equals_field\":\"missing\"}]");
        assertEquals("fail", result(r));
        assertEquals(
                "expected one number at 'missing', found nothing",
                r.get("flags").get(0).get("detail").asString());
    }

    @Test
    void integerBeyondDoublePrecisionIsAWarning() {
        ObjectNode r = run("{\"id\":9007199254740993}", "");
        assertEquals("pass", result(r));
        JsonNode flag = r.get("flags").get(0);
        assertEquals("sanity:exact_number", flag.get("check").asString());
        assertEquals("warning", flag.get("severity").asString());
        // The text the hash covers, as RFC 8785 prints the double, not the double's exact expansion.
        ObjectNode big = run("{\"id\":123456789012345678901}", "");
        assertTrue(
                big.get("flags").get(0).get("detail").asString().endsWith("hash use 123456789012345680000"),
                big.get("flags").get(0).toString());
    }

    @Test
    void listsAreCappedWithTotals() {
        StringBuilder ids = new StringBuilder("[");
        for (int i = 0; i < 120; i++) {
            ids.append(i == 0 ? "" : ",").append("\"same\"");
        }
        ObjectNode r = run(
                "{\"ids\":" + ids + "]}",
                "\"enforce_rules\":true,\"rules\":[{\"type\":\"unique\",\"field\":\"ids[]\"}]");
        assertEquals(50, r.get("errors").size());
        assertEquals(119, r.get("errors_total").asInt());
        assertEquals(69, r.get("errors_omitted").asInt());
        assertEquals(50, r.get("hints").size());
    }
}
