package dev.proofline.engine;

import static dev.proofline.engine.EngineFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class SchemaChecksTest {
    private final EngineFixture fixture = new EngineFixture();

    private static String compliance(ObjectNode receipt) {
        JsonNode c = receipt.get("schema_compliance");
        return c.get("passed").asInt() + "/" + c.get("total").asInt();
    }

    @Test
    void failingKeywordsAreCountedAndExplained() {
        String schema = "{\"type\":\"object\",\"required\":[\"id\",\"n\"],\"properties\":{\"id\":{\"type\":\"string\"},"
                + "\"n\":{\"type\":\"integer\",\"minimum\":1}}}";
        ObjectNode r = fixture.verify(request(schema, "{\"n\":0}", ""));
        assertEquals("fail", r.get("result").asString());
        assertEquals("2/4", compliance(r)); // root type, required (fails), n.type, n.minimum (fails); absent id: none
        assertEquals(
                "[\"schema:minimum\",\"schema:required\"]",
                r.get("summary").get("blocking_checks").toString());
        JsonNode required = r.get("hints").get(1);
        assertEquals("$.id", required.get("path").asString());
        assertEquals("missing", required.get("found").asString());
        assertEquals("schema", required.get("source").asString());
        assertTrue(
                r.get("errors").get(0).asString().startsWith("schema:minimum at 'n': "),
                r.get("errors").toString());
    }

    @Test
    void hintsNameTheConstraintSoACallerCanRepair() {
        String schema = "{\"type\":\"object\",\"properties\":{"
                + "\"code\":{\"type\":\"string\",\"pattern\":\"^[A-Z]{3}$\"},"
                + "\"n\":{\"type\":\"number\",\"minimum\":0,\"exclusiveMaximum\":10.5},"
                + "\"cur\":{\"enum\":[\"EUR\",\"USD\"]},"
                + "\"id\":{\"type\":[\"string\",\"null\"]},"
                + "\"tags\":{\"type\":\"array\",\"maxItems\":1}}}";
        ObjectNode r = fixture.verify(
                request(schema, "{\"code\":\"eur\",\"n\":-1,\"cur\":\"GBP\",\"id\":7,\"tags\":[1,2]}", ""));
        java.util.Map<String, String> expected = new java.util.TreeMap<>();
        r.get("hints")
                .forEach(h ->
                        expected.put(h.get("path").asString(), h.get("expected").asString()));
        assertEquals(
                java.util.Map.of(
                        "$.code", "pattern ^[A-Z]{3}$",
                        "$.n", "minimum 0",
                        "$.cur", "enum [\"EUR\",\"USD\"]",
                        "$.id", "type [\"string\",\"null\"]",
                        "$.tags", "maxItems 1"),
                expected);
        ObjectNode high = fixture.verify(request(schema, "{\"n\":11}", ""));
        assertEquals(
                "exclusiveMaximum 10.5",
                high.get("hints").get(0).get("expected").asString());
        ObjectNode type = fixture.verify(request(schema, "{\"code\":5}", ""));
        assertEquals("type string", type.get("hints").get(0).get("expected").asString());
    }

    @Test
    void onlyKeywordsThatCanFailAreChecks() {
        // Annotations, core keywords and unknown ones pass every value: none is a check.
        String annotated =
                "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"$id\":\"https://x.example/s\","
                        + "\"$comment\":\"c\",\"title\":\"t\",\"description\":\"d\",\"default\":{},\"examples\":[{}],"
                        + "\"deprecated\":false,\"readOnly\":true,\"x-vendor\":1,\"$defs\":{\"s\":{\"type\":\"string\"}},"
                        + "\"type\":\"object\",\"properties\":{\"p\":{\"type\":\"string\",\"contentMediaType\":\"application/json\","
                        + "\"contentEncoding\":\"base64\",\"minLength\":5}}}";
        assertEquals("3/3", compliance(fixture.verify(request(annotated, "{\"p\":\"e30=e30=\"}", ""))));
        // One of the two real checks fails: the ratio says half, not 12 of 13.
        assertEquals("2/3", compliance(fixture.verify(request(annotated, "{\"p\":\"e30\"}", ""))));
        String dated = "{\"type\":\"string\",\"format\":\"date\"}";
        assertEquals("2/2", compliance(fixture.verify(request(dated, "\"2026-12-04\"", ""))));
        // Each draft as it reads its keywords: draft 4's boolean exclusiveMaximum modifies maximum,
        // which reports the failure; draft 4 knows no const; draft 7 asserts contentMediaType.
        String draft4 = "{\"$schema\":\"http://json-schema.org/draft-04/schema#\",\"maximum\":10,"
                + "\"exclusiveMaximum\":true,\"const\":3}";
        assertEquals("0/1", compliance(fixture.verify(request(draft4, "10", ""))));
        String draft7 = "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"string\","
                + "\"contentMediaType\":\"application/json\"}";
        assertEquals("1/2", compliance(fixture.verify(request(draft7, "\"{not json\"", ""))));
        assertEquals("2/2", compliance(fixture.verify(request(draft7, "\"{}\"", ""))));
        // A name the draft does not know is no check, even one that would be an applicator later.
        String draft4Contains = "{\"$schema\":\"http://json-schema.org/draft-04/schema#\",\"type\":\"array\","
                + "\"contains\":{\"type\":\"string\"},\"if\":{\"type\":\"array\"}}";
        assertEquals("1/1", compliance(fixture.verify(request(draft4Contains, "[1]", ""))));
        // minContains never fails alone: contains reports what it finds.
        String counted = "{\"contains\":{\"const\":1},\"minContains\":2}";
        assertEquals("0/1", compliance(fixture.verify(request(counted, "[1,2]", ""))));
        // format as the specification's annotation (verify.format.assertion=false) fails nothing: not a check.
        EngineFixture annotating = new EngineFixture(EngineSettings.defaults().withFormatAssertion(false));
        assertEquals("1/1", compliance(annotating.verify(request(dated, "\"2026-13-45\"", ""))));
    }

    @Test
    void anyOfCountsAsOneCheckWhateverItsBranchesDo() {
        String schema = "{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\",\"minimum\":0}]}";
        ObjectNode pass = fixture.verify(request(schema, "5", ""));
        assertEquals("pass", pass.get("result").asString());
        assertEquals("1/1", compliance(pass));
        ObjectNode fail = fixture.verify(request(schema, "-5", ""));
        assertEquals("fail", fail.get("result").asString());
        assertEquals("0/1", compliance(fail));
    }

    @Test
    void draft07SchemasAreHonoured() {
        String schema = "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"items\":[{\"type\":\"string\"}],"
                + "\"additionalItems\":false}";
        assertEquals(
                "fail",
                fixture.verify(request(schema, "[\"a\",1]", "")).get("result").asString());
        assertEquals(
                "pass",
                fixture.verify(request(schema, "[\"a\"]", "")).get("result").asString());
        ObjectNode failed = fixture.verify(request(schema, "[\"a\",1]", ""));
        assertEquals(
                "[\"schema:additionalItems\"]",
                failed.get("summary").get("blocking_checks").toString());
        assertEquals(
                0,
                failed.get("schema_compliance").get("ratio").asDouble() == 1.0 ? 1 : 0,
                "a failed result never shows 100%");
    }

    @Test
    void aSchemaIsCompiledOnceForManyRequests() {
        byte[] invoice =
                Conformance.json("requests/invoice-draft.json").toString().getBytes(StandardCharsets.UTF_8);
        SchemaCompiler compiler = new SchemaCompiler(16);
        RequestParser parser = new RequestParser(compiler, 1 << 20);
        for (int i = 0; i < 500; i++) {
            assertTrue(parser.parse(invoice) instanceof ParseOutcome.Valid);
        }
        assertEquals(1, compiler.compilations());
    }

    @Test
    void strictContentCheckFailsHollowContent() {
        String schema =
                "{\"type\":\"object\",\"required\":[\"name\",\"note\"],\"properties\":{\"name\":{\"type\":\"string\"},"
                        + "\"note\":{\"type\":\"string\"}}}";
        String output = "{\"name\":\"  \",\"note\":\"TODO\",\"extra\":\"lorem ipsum dolor\"}";
        ObjectNode lenient = fixture.verify(request(schema, output, ""));
        assertEquals("pass", lenient.get("result").asString());
        ObjectNode strict = fixture.verify(request(schema, output, "\"strict_content_check\":true"));
        assertEquals("fail", strict.get("result").asString());
        assertEquals(
                "[\"content:undeclared_property\",\"content:empty_required\",\"content:placeholder\"]",
                strict.get("summary").get("blocking_checks").toString());
        assertEquals(4, strict.get("errors_total").asInt(), "blank name, undeclared extra, TODO, lorem ipsum");
        ObjectNode clean = fixture.verify(
                request(schema, "{\"name\":\"Ada\",\"note\":\"paid\"}", "\"strict_content_check\":true"));
        assertEquals("pass", clean.get("result").asString());
        ObjectNode open = fixture.verify(request(
                "{\"properties\":{\"a\":{}},\"additionalProperties\":true}",
                "{\"a\":1,\"b\":2}",
                "\"strict_content_check\":true"));
        assertEquals("pass", open.get("result").asString());
    }

    /**
     * A property that only the branch the output takes lists (a discriminated union in oneOf, an
     * anyOf, if/then) is declared; one that only a branch it does not take lists is not.
     */
    @Test
    void strictContentCheckCountsThePropertiesOfTheBranchTaken() {
        String union =
                "{\"type\":\"object\",\"required\":[\"kind\"],\"properties\":{\"kind\":{\"enum\":[\"a\",\"b\"]}},"
                        + "\"oneOf\":[{\"properties\":{\"kind\":{\"const\":\"a\"},\"x\":{\"type\":\"integer\"}},\"required\":[\"x\"]},"
                        + "{\"properties\":{\"kind\":{\"const\":\"b\"},\"y\":{\"type\":\"string\"}},\"required\":[\"y\"]}]}";
        String strict = "\"strict_content_check\":true";
        assertEquals(
                "pass",
                fixture.verify(request(union, "{\"kind\":\"a\",\"x\":1}", strict))
                        .get("result")
                        .asString());
        ObjectNode other = fixture.verify(request(union, "{\"kind\":\"a\",\"x\":1,\"y\":\"s\"}", strict));
        assertEquals("fail", other.get("result").asString(), "y belongs to the branch not taken");
        assertEquals(
                "[\"content:undeclared_property\"]",
                other.get("summary").get("blocking_checks").toString());
        assertTrue(
                other.get("errors").get(0).asString().contains("'y'"),
                other.get("errors").toString());
        String anyOf = "{\"type\":\"object\",\"properties\":{\"id\":{}},"
                + "\"anyOf\":[{\"properties\":{\"x\":{\"type\":\"integer\"}}},{\"required\":[\"z\"]}]}";
        assertEquals(
                "pass",
                fixture.verify(request(anyOf, "{\"id\":1,\"x\":2}", strict))
                        .get("result")
                        .asString());
        String ifThen =
                "{\"type\":\"object\",\"properties\":{\"kind\":{}},\"if\":{\"properties\":{\"kind\":{\"const\":\"a\"}}},"
                        + "\"then\":{\"properties\":{\"x\":{}}},\"else\":{\"properties\":{\"y\":{}}}}";
        assertEquals(
                "pass",
                fixture.verify(request(ifThen, "{\"kind\":\"a\",\"x\":1}", strict))
                        .get("result")
                        .asString());
        assertEquals(
                "fail",
                fixture.verify(request(ifThen, "{\"kind\":\"a\",\"y\":1}", strict))
                        .get("result")
                        .asString());
        assertEquals(
                "pass",
                fixture.verify(request(ifThen, "{\"kind\":\"b\",\"y\":1}", strict))
                        .get("result")
                        .asString());
        // An output the schema refuses for something else: its branch's properties are still declared.
        ObjectNode missing = fixture.verify(request(
                union.replace("\"required\":[\"kind\"]", "\"required\":[\"kind\",\"z\"]"),
                "{\"kind\":\"a\",\"x\":1}",
                strict));
        assertEquals(
                "[\"schema:required\"]",
                missing.get("summary").get("blocking_checks").toString());
    }

    /**
     * Keywords networknt does not walk (propertyNames, patternProperties, unevaluatedProperties) fail
     * without a counted keyword failing: one failed check is added, and the counted ones still passed.
     */
    @Test
    void aFailureNoCountedKeywordShowsIsOneFailedCheckNeverANegativeCount() {
        assertEquals(
                "0/1", compliance(fixture.verify(request("{\"propertyNames\":{\"maxLength\":2}}", "{\"abc\":1}", ""))));
        assertEquals(
                "1/2",
                compliance(fixture.verify(request(
                        "{\"type\":\"object\",\"patternProperties\":{\"^x\":{\"type\":\"integer\"}}}",
                        "{\"x1\":\"a\",\"x2\":\"b\"}",
                        ""))));
    }

    /** In an output that is an array, fields are named from the array: {@code [1]}, not {@code 1]}. */
    @Test
    void fieldsInATopLevelArrayKeepTheirBracket() {
        ObjectNode r =
                fixture.verify(request("{\"type\":\"array\",\"items\":{\"type\":\"integer\"}}", "[1,\"x\"]", ""));
        assertTrue(
                r.get("errors").get(0).asString().startsWith("schema:type at '[1]': "),
                r.get("errors").toString());
        ObjectNode rule = fixture.verify(request(
                "{\"type\":\"array\"}",
                "[{\"v\":1},{\"v\":\"x\"}]",
                "\"rules\":[{\"type\":\"sum_equals\",\"field\":\"[].v\",\"equals\":1}]"));
        assertEquals(
                "[1].v",
                rule.get("flags").get(0).get("field").asString(),
                rule.get("flags").toString());
    }
}
