package dev.proofline.attestor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Every hash in expected.json, reproduced from the requests. */
class RequestHashesTest {

    @Test
    void everyExpectedHashIsReproduced() {
        JsonNode expected = Conformance.expected().get("hashes");
        int compared = 0;
        for (Map.Entry<String, JsonNode> entry : expected.properties()) {
            RequestHashes hashes = RequestHashes.of(Conformance.json(entry.getKey()));
            for (String name : RequestHashes.NAMES) {
                JsonNode want = entry.getValue().get(name);
                if (want != null) {
                    assertEquals(want.asString(), hashes.byName(name), entry.getKey() + " " + name);
                    compared++;
                }
            }
        }
        assertEquals(10, compared, "every hash in expected.json, vector 3 (Unicode, 1e21, 1e-6) included");
    }

    @Test
    void vectorOneCanonicalRequestIsExact() {
        JsonNode vector = Conformance.expected().get("hashes").get("requests/request-hash-vector-1.json");
        assertEquals(
                vector.get("canonical_request").asString(),
                CanonicalJson.toCanonicalString(
                        CanonicalRequest.of(Conformance.json("requests/request-hash-vector-1.json"))));
    }

    @Test
    void defaultsFilledInGiveTheSameRequestHashAsSendingThem() {
        // Vector 2 is written with every default spelled out; a caller who omits them means the same.
        String omitted = """
                {"task_id":"tv-2","agent_id":"seller-7","enforce_rules":true,
                 "expected_schema":%s,"submitted_output":%s,
                 "bounds":{"items[].price":{"min":0,"max":100}},
                 "rules":[{"type":"sum_equals","field":"items[].price","equals_field":"total","tolerance":0.01},
                          {"type":"unique","field":"items[].id"}]}""".formatted(
                        Conformance.json("requests/request-hash-vector-2.json").get("expected_schema"),
                        Conformance.json("requests/request-hash-vector-2.json").get("submitted_output"));
        assertEquals(
                "1aa064d21a2c1487d5d319ded6efec48c18dfee45b93f741266b1f491c2e099f",
                RequestHashes.of(StrictJson.parse(omitted)).requestHash());
    }

    @Test
    void detailIsNeverHashed() {
        JsonNode full = Conformance.json("requests/invoice-draft.json");
        var compact = ((tools.jackson.databind.node.ObjectNode) full.deepCopy()).put("detail", "compact");
        assertEquals(RequestHashes.of(full), RequestHashes.of(compact));
    }
}
