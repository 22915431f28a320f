package dev.proofline.engine;

import static dev.proofline.engine.EngineFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.StrictJson;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Requests built to stop a stream thread: endless recursion, exponential fan-out, deep nesting,
 * unbounded work. Each is refused before evaluation or stopped by the step budget, so one record
 * can never hold the pipeline; legitimately recursive schemas keep working.
 */
class PathologicalRequestsTest {
    private final EngineFixture fixture = new EngineFixture();

    private ObjectNode refused(String schema) {
        ObjectNode error = fixture.invalid(request(schema, "{\"a\":1}", ""));
        assertEquals("invalid_request", error.get("code").asString(), error.toString());
        return error;
    }

    private static String problems(ObjectNode error) {
        return error.get("fields").toString();
    }

    /**
     * JSON keys may be 50,000 characters, and a finding's path, field and detail repeat them: 19 such
     * keys refused by additionalProperties once made a receipt of 1.9 MB, which AWS-LC would not sign
     * and Kafka would not take. Each list keeps what fits; the rest is counted as omitted.
     */
    @Test
    void outputKeysAsLongAsJsonAllowsStillGiveAReceiptThatFitsOneKafkaRecord() {
        for (int length : new int[] {49_000, 4_000, 100}) {
            String keys = IntStream.range(0, 19)
                    .mapToObj(i -> "\"k" + i + "\\u0001".repeat(length / 6) + "x".repeat(length - length / 6) + "\":1")
                    .collect(Collectors.joining(","));
            ObjectNode receipt = fixture.verify(
                    request("{\"type\":\"object\",\"additionalProperties\":false}", "{" + keys + "}", ""));
            assertEquals("fail", receipt.get("result").asString());
            int size = dev.proofline.attestor.CanonicalJson.toCanonicalBytes(receipt).length;
            assertTrue(size <= ReceiptAssembler.LARGEST_RECEIPT_BYTES, length + ": a receipt of " + size + " bytes");
            for (String list : new String[] {"errors", "errors_detail", "hints"}) {
                assertEquals(
                        receipt.get(list + "_total").asInt(),
                        receipt.get(list).size()
                                + receipt.get(list + "_omitted").asInt(),
                        list);
            }
            if (length == 100) {
                assertEquals(19, receipt.get("errors").size(), "short enough to keep every entry");
            }
        }
    }

    @Test
    void selfReferenceAtTheRootIsRefusedNotEvaluated() {
        assertTrue(problems(refused("{\"$ref\":\"#\"}")).contains("never end"));
        assertTrue(problems(refused("{\"$ref\":\"\"}")).contains("never end"), "an empty $ref is the document itself");
    }

    @Test
    void cyclesThroughDefsAndCombinatorsAreRefused() {
        refused("{\"$ref\":\"#/$defs/a\",\"$defs\":{\"a\":{\"$ref\":\"#/$defs/b\"},\"b\":{\"$ref\":\"#/$defs/a\"}}}");
        refused("{\"anyOf\":[{\"$ref\":\"#\"},{\"type\":\"object\"}]}");
        refused(
                "{\"$defs\":{\"x\":{\"allOf\":[{\"$ref\":\"#/$defs/x\"}]}},\"properties\":{\"a\":{\"$ref\":\"#/$defs/x\"}}}");
        refused("{\"$id\":\"https://example.com/s\",\"$ref\":\"https://example.com/s#\"}");
    }

    @Test
    void exponentialFanOutIsRefusedBeforeEvaluation() {
        String defs = doublingDefs(40, "");
        ObjectNode error = refused("{\"$ref\":\"#/$defs/d0\",\"$defs\":{" + defs + ",\"d40\":{\"type\":\"object\"}}}");
        assertTrue(problems(error).contains("more than " + SchemaReferences.MAX_EXPANSION), problems(error));
    }

    @Test
    void remoteReferencesAreRefusedWhereverTheyStand() {
        refused("{\"$dynamicRef\":\"https://example.com/x#node\"}");
        refused("{\"contentMediaType\":\"application/json\",\"contentSchema\":{\"$ref\":\"http://127.0.0.1:9/x\"}}");
        refused("{\"$defs\":{\"unused\":{\"$ref\":\"file:///etc/passwd\"}}}");
        refused("{\"$ref\":\"urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66\"}");
    }

    @Test
    void recursiveSchemasThatDescendKeepWorking() {
        String tree = "{\"type\":\"object\",\"required\":[\"name\"],\"properties\":{\"name\":{\"type\":\"string\"},"
                + "\"children\":{\"type\":\"array\",\"items\":{\"$ref\":\"#\"}}}}";
        String good =
                "{\"name\":\"root\",\"children\":[{\"name\":\"a\",\"children\":[{\"name\":\"a1\"}]},{\"name\":\"b\"}]}";
        assertEquals(
                "pass", fixture.verify(request(tree, good, "")).get("result").asString());
        String bad = "{\"name\":\"root\",\"children\":[{\"children\":[]}]}";
        assertEquals(
                "fail", fixture.verify(request(tree, bad, "")).get("result").asString());
        String viaDefs = "{\"$ref\":\"#/$defs/node\",\"$defs\":{\"node\":{\"type\":\"object\",\"properties\":{\"next\":"
                + "{\"$ref\":\"#/$defs/node\"}}}}}";
        assertEquals(
                "pass",
                fixture.verify(request(viaDefs, "{\"next\":{\"next\":{}}}", ""))
                        .get("result")
                        .asString());
        String dynamic =
                "{\"$dynamicAnchor\":\"node\",\"type\":\"object\",\"properties\":{\"kids\":{\"type\":\"array\","
                        + "\"items\":{\"$dynamicRef\":\"#node\"}}}}";
        assertEquals(
                "pass",
                fixture.verify(request(dynamic, "{\"kids\":[{\"kids\":[]}]}", ""))
                        .get("result")
                        .asString());
    }

    @Test
    void valuesTheValidatorCannotHoldAreInvalidRequestsNotCrashes() {
        refused("{\"type\":\"array\",\"minItems\":1e308}");
        refused("{\"type\":\"string\",\"maxLength\":1e300}");
    }

    @Test
    void nestingDeeperThanTheLimitIsRefusedAtTheDoor() {
        String deep = "[".repeat(StrictJson.MAX_NESTING_DEPTH + 10) + "]".repeat(StrictJson.MAX_NESTING_DEPTH + 10);
        ObjectNode error = fixture.invalid(request("{}", deep, ""));
        assertTrue(error.toString().contains("nested deeper than " + StrictJson.MAX_NESTING_DEPTH), error.toString());
        String hundredThousand = "[".repeat(100_000) + "]".repeat(100_000);
        assertEquals(
                "invalid_request",
                fixture.invalid(request("{}", hundredThousand, "")).get("code").asString());
    }

    @Test
    void workBeyondTheBudgetStopsWithItsOwnErrorWhateverTheMachine() {
        String values = IntStream.range(0, 40_000).mapToObj(Integer::toString).collect(Collectors.joining(","));
        String rules = IntStream.range(0, 2_000)
                .mapToObj(i -> "{\"type\":\"unique\",\"field\":\"v[]\"}")
                .collect(Collectors.joining(","));
        JsonNode request = StrictJson.parse(
                request("{\"type\":\"object\"}", "{\"v\":[" + values + "]}", "\"rules\":[" + rules + "]"));
        ParseOutcome outcome = fixture.parse(request);
        VerificationRequest valid = ((ParseOutcome.Valid) outcome).request();
        VerificationBudgetExceeded over = assertThrows(
                VerificationBudgetExceeded.class,
                () -> fixture.engine.verify(valid, EngineFixture.ID, EngineFixture.AT));
        assertEquals(EngineSettings.DEFAULT_BUDGET_STEPS, over.budgetSteps());
        // The same request again: the same verdict, because steps are counted, not timed.
        assertThrows(
                VerificationBudgetExceeded.class,
                () -> fixture.engine.verify(valid, EngineFixture.ID, EngineFixture.AT));

        String wideSchema = "{\"type\":\"array\",\"items\":{\"allOf\":["
                + IntStream.range(0, 200)
                        .mapToObj(i -> "{\"type\":\"integer\",\"minimum\":" + (-i) + "}")
                        .collect(Collectors.joining(","))
                + "]}}";
        ParseOutcome wide = fixture.parse(request(wideSchema, "[" + values + "]", ""));
        assertThrows(
                VerificationBudgetExceeded.class,
                () -> fixture.engine.verify(((ParseOutcome.Valid) wide).request(), EngineFixture.ID, EngineFixture.AT));
    }

    @Test
    void errorDocumentsStaySmallHoweverManyProblems() {
        String unknown =
                IntStream.range(0, 80_000).mapToObj(i -> "\"k" + i + "\":1").collect(Collectors.joining(","));
        ObjectNode error = fixture.invalid("{" + unknown + ",\"task_id\":\"t\"}");
        assertEquals(
                dev.proofline.contract.ErrorDocument.MAX_FIELDS,
                error.get("fields").size());
        assertTrue(error.get("fields_omitted").asInt() >= 80_000 - 20);
        assertTrue(error.toString().getBytes(StandardCharsets.UTF_8).length < 16_384, "an error is receipt-sized");
        String emptyRules = IntStream.range(0, 300_000).mapToObj(i -> "{}").collect(Collectors.joining(","));
        ObjectNode rules = fixture.invalid(request("{}", "{}", "\"rules\":[" + emptyRules + "]"));
        assertTrue(rules.toString().getBytes(StandardCharsets.UTF_8).length < 16_384);
    }

    /**
     * The strict checks validate once more, collecting which properties each branch declares, and
     * then every anyOf branch is evaluated: the walk paid for the first branch that passed (here
     * {@code true}), the second pass would evaluate 255 subschemas per item. It spends what the
     * budget has left and stops there.
     */
    @Test
    void theStrictChecksSecondLookAtBranchesIsPaidForToo() {
        String defs = doublingDefs(7, "\"properties\":{\"k\":{}},");
        String schema = "{\"type\":\"object\",\"properties\":{\"items\":{\"type\":\"array\",\"items\":"
                + "{\"properties\":{\"k\":{}},\"anyOf\":[true,{\"$ref\":\"#/$defs/d0\"}]}}},"
                + "\"$defs\":{" + defs + ",\"d7\":{\"properties\":{\"k\":{}}}}}";
        String output =
                "{\"items\":[" + IntStream.range(0, 2_000).mapToObj(i -> "{}").collect(Collectors.joining(",")) + "]}";
        EngineFixture small = new EngineFixture(EngineSettings.defaults().withBudgetSteps(200_000));
        VerificationRequest lenient = ((ParseOutcome.Valid) small.parse(request(schema, output, ""))).request();
        assertEquals(
                "pass",
                small.engine.verify(lenient, EngineFixture.ID, EngineFixture.AT).result());
        VerificationRequest strict =
                ((ParseOutcome.Valid) small.parse(request(schema, output, "\"strict_content_check\":true"))).request();
        assertThrows(
                VerificationBudgetExceeded.class,
                () -> small.engine.verify(strict, EngineFixture.ID, EngineFixture.AT));
    }

    /**
     * {@code $defs} d0 to d(levels-1), each {@code allOf} two references to the next (so d0 applies
     * 2^levels subschemas), each also holding {@code members} (JSON members and a trailing comma).
     */
    private static String doublingDefs(int levels, String members) {
        return IntStream.range(0, levels)
                .mapToObj(i -> "\"d" + i + "\":{" + members + "\"allOf\":[{\"$ref\":\"#/$defs/d" + (i + 1)
                        + "\"},{\"$ref\":\"#/$defs/d" + (i + 1) + "\"}]}")
                .collect(Collectors.joining(","));
    }

    private void overBudget(String schema, String output) {
        ParseOutcome outcome = fixture.parse(request(schema, output, ""));
        VerificationRequest valid = ((ParseOutcome.Valid) outcome).request();
        assertThrows(
                VerificationBudgetExceeded.class,
                () -> fixture.engine.verify(valid, EngineFixture.ID, EngineFixture.AT));
    }

    /**
     * RE2/J is linear in the input, but its NFA steps every instruction of the program for every
     * character: 20 copies of a 1,000-fold repeat over 100,000 characters took 16 s for one match
     * (and the schema is matched twice). The budget charges input times program before matching.
     */
    @Test
    void aPatternsProgramTimesItsInputIsPaidForBeforeItRuns() {
        String pattern = "[ab]{1000}".repeat(20) + "c";
        overBudget("{\"type\":\"string\",\"pattern\":\"" + pattern + "\"}", "\"" + "a".repeat(100_000) + "\"");
        assertTrue(
                Re2jRegularExpressions.programSize(Re2jRegularExpressions.compile(pattern)) > 20_000,
                "the program's size is read from RE2/J, not guessed");
        // An ordinary pattern over ordinary strings costs next to nothing.
        ObjectNode receipt = fixture.verify(request(
                "{\"type\":\"array\",\"items\":{\"pattern\":\"^INV-[0-9]{4}$\"}}",
                "[" + IntStream.range(0, 2_000).mapToObj(i -> "\"INV-1234\"").collect(Collectors.joining(",")) + "]",
                ""));
        assertEquals("pass", receipt.get("result").asString());
    }

    /**
     * Every message of a failed enum repeats the whole enum, and the validator keeps every message:
     * 400 KB of enum over 300,000 items would be 120 GB. Messages are paid for as they are made.
     */
    @Test
    void failuresWhoseMessagesRepeatALargeValueCannotFillTheHeap() {
        String names = IntStream.range(0, 20_000)
                .mapToObj(i -> "\"name-" + "x".repeat(12) + i + "\"")
                .collect(Collectors.joining(","));
        String items = IntStream.range(0, 100_000).mapToObj(i -> "0").collect(Collectors.joining(","));
        overBudget("{\"items\":{\"enum\":[" + names + "]}}", "[" + items + "]");
        // anyOf's message carries its subschemas' messages, so it is as long, and paid for as much.
        overBudget("{\"items\":{\"anyOf\":[{\"enum\":[" + names + "]}]}}", "[" + items + "]");
    }

    /**
     * A key may be 50,000 characters, and every value under it has a path that repeats it: a
     * number check on 50,000 values builds and keeps gigabytes of paths unless it pays for them.
     */
    @Test
    void pathsUnderLongKeysArePaidFor() {
        String key = "k".repeat(50_000);
        String numbers =
                IntStream.range(0, 50_000).mapToObj(i -> "9007199254740993").collect(Collectors.joining(","));
        overBudget("true", "{\"" + key + "\":[" + numbers + "]}");
    }

    /**
     * A schema with 400,000 invalid subschemas under one long key: its first problems, quickly, also
     * where the meta-schema wraps the place in anyOf (2020-12's dependencies), whose errors arrive
     * all at once.
     */
    @Test
    void anInvalidSchemaReportsItsFirstProblemsNotAllOfThem() {
        String ones = IntStream.range(0, 400_000).mapToObj(i -> "1").collect(Collectors.joining(","));
        for (String where : new String[] {"$defs", "dependencies"}) {
            ObjectNode error =
                    refused("{\"" + where + "\":{\"" + "d".repeat(50_000) + "\":{\"allOf\":[" + ones + "]}}}");
            assertTrue(problems(error).contains("is not valid JSON Schema"), problems(error));
            assertTrue(error.toString().getBytes(StandardCharsets.UTF_8).length < 65_536, "the error stays small");
            assertTrue(error.path("fields_omitted").asInt(0) <= 100, where + ": " + error.get("fields_omitted"));
        }
    }

    /**
     * propertyNames, patternProperties and contains run their subschemas without the counting walk,
     * and propertyNames writes every inner message at once: 40,000 names against an enum of 20,000
     * would be 17 GB of messages, 20,000 keys against 999 consts 20 million errors. They are paid for
     * before they run, by the values they meet times the size of their subschemas.
     */
    @Test
    void applicatorsTheWalkSkipsArePaidForBeforeTheyRun() {
        String names =
                IntStream.range(0, 20_000).mapToObj(i -> "\"name-" + i + "\"").collect(Collectors.joining(","));
        String keys =
                IntStream.range(0, 40_000).mapToObj(i -> "\"k" + i + "\":0").collect(Collectors.joining(","));
        overBudget("{\"propertyNames\":{\"enum\":[" + names + "]}}", "{" + keys + "}");
        String consts = IntStream.range(0, 999).mapToObj(i -> "{\"const\":0}").collect(Collectors.joining(","));
        overBudget("{\"patternProperties\":{\"\":{\"allOf\":[" + consts + "]}}}", "{" + keys + "}");
        // Ordinary use costs what it did: a thousand properties, a few patterns.
        String fields =
                IntStream.range(0, 1_000).mapToObj(i -> "\"x-" + i + "\":\"v\"").collect(Collectors.joining(","));
        ObjectNode receipt = fixture.verify(request(
                "{\"patternProperties\":{\"^x-\":{\"type\":\"string\"}},\"propertyNames\":{\"maxLength\":20}}",
                "{" + fields + "}",
                ""));
        assertEquals("pass", receipt.get("result").asString());
    }

    /**
     * A long value is cut for display; a cut through an emoji left half of it, which has no UTF-8
     * form, and the whole valid request was refused as {@code verification_failed}.
     */
    @Test
    void aValueCutForDisplayKeepsItsEmojiWhole() {
        String emoji = "\\ud83d\\ude00";
        ObjectNode receipt = fixture.verify(
                request("{\"type\":\"string\",\"maxLength\":1}", "\"" + "a".repeat(75) + emoji + "bbbb\"", ""));
        assertEquals("fail", receipt.get("result").asString());
        String found = receipt.get("errors_detail").get(0).get("found").asString();
        assertEquals("'" + "a".repeat(75) + "...", found);
    }

    @Test
    void anUnknownFieldNameCutInAnErrorKeepsItsEmojiWhole() {
        ObjectNode error = fixture.invalid("{\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\""
                + "k".repeat(63) + "\\ud83d\\ude00\":1}");
        // Every text of the error document has a UTF-8 form: it can be canonicalized and sent.
        dev.proofline.attestor.CanonicalJson.toCanonicalBytes(error);
    }
}
