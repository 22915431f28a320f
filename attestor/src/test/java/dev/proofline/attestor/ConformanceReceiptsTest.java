package dev.proofline.attestor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The reference service's receipts verify under our code, and only unaltered. */
class ConformanceReceiptsTest {

    static Stream<String> receipts() {
        List<String> names = new ArrayList<>();
        Conformance.expected().get("receipts_that_must_verify").forEach(n -> names.add(n.asString()));
        assertEquals(2, names.size());
        return names.stream();
    }

    @ParameterizedTest
    @MethodSource("receipts")
    void referenceReceiptVerifiesWithTheReferenceKey(String name) {
        JsonNode receipt = Conformance.json(name);
        VerificationOutcome outcome =
                new ReceiptVerifier(Conformance.referenceKeys()).verifySignature(receipt, AttestationContext.VERIFY);
        assertTrue(outcome.valid(), outcome::toString);
    }

    @ParameterizedTest
    @MethodSource("receipts")
    void referenceReceiptDoesNotVerifyUnderTheScoreContext(String name) {
        assertFalse(new ReceiptVerifier(Conformance.referenceKeys())
                .verifySignature(Conformance.json(name), AttestationContext.SCORE)
                .valid());
    }

    @ParameterizedTest
    @MethodSource("receipts")
    void changingAnySingleValueBreaksTheSignature(String name) {
        JsonNode original = Conformance.json(name);
        ReceiptVerifier verifier = new ReceiptVerifier(Conformance.referenceKeys());
        List<String> mutated = new ArrayList<>();
        forEachLeaf(original, "$", (path, mutant) -> {
            mutated.add(path);
            assertFalse(
                    verifier.verifySignature(mutant, AttestationContext.VERIFY).valid(),
                    "a receipt with " + path + " changed still verified");
        });
        // Every field of the receipt, the attestation's own included, was tried.
        assertTrue(mutated.size() >= 26, "only " + mutated.size() + " values mutated");
        assertTrue(mutated.contains("$.attestation.signature"));
        assertTrue(mutated.contains("$.verify.public_key_url"));
    }

    @ParameterizedTest
    @MethodSource("receipts")
    void removingAnyFieldOrAddingOneBreaksTheSignature(String name) {
        JsonNode original = Conformance.json(name);
        ReceiptVerifier verifier = new ReceiptVerifier(Conformance.referenceKeys());
        for (String field : original.propertyNames()) {
            if (field.equals("attestation")) {
                continue;
            }
            ObjectNode without = (ObjectNode) original.deepCopy();
            without.remove(field);
            assertFalse(
                    verifier.verifySignature(without, AttestationContext.VERIFY).valid(), "without " + field);
        }
        ObjectNode extra = (ObjectNode) original.deepCopy();
        extra.put("note", "added later");
        assertFalse(verifier.verifySignature(extra, AttestationContext.VERIFY).valid());
    }

    @ParameterizedTest
    @MethodSource("receipts")
    void recomputedHashesMatchTheRequestBehindTheReceipt(String name) {
        JsonNode receipt = Conformance.json(name);
        String request =
                name.replace("receipts/", "requests/").replace(".full", "").replace(".compact", "");
        assertEquals(VerificationOutcome.VALID, ReceiptVerifier.compareHashes(receipt, Conformance.json(request)));
        ObjectNode otherOutput = (ObjectNode) Conformance.json(request).deepCopy();
        ((ObjectNode) otherOutput.get("submitted_output")).put("total", 1);
        VerificationOutcome outcome = ReceiptVerifier.compareHashes(receipt, otherOutput);
        assertFalse(outcome.valid());
        assertTrue(outcome.reason().startsWith("output_hash differs"), outcome.reason());
    }

    interface MutantSink {
        void accept(String path, JsonNode mutant);
    }

    /** Calls the sink once per leaf value with a copy of the document where only that value changed. */
    static void forEachLeaf(JsonNode root, String path, MutantSink sink) {
        walk(root, root, path, sink, new ArrayList<>());
    }

    private static void walk(JsonNode root, JsonNode node, String path, MutantSink sink, List<Object> steps) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                steps.add(e.getKey());
                walk(root, e.getValue(), path + "." + e.getKey(), sink, steps);
                steps.remove(steps.size() - 1);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                steps.add(i);
                walk(root, node.get(i), path + "[" + i + "]", sink, steps);
                steps.remove(steps.size() - 1);
            }
        } else {
            JsonNode copy = root.deepCopy();
            JsonNode parent = copy;
            for (int i = 0; i < steps.size() - 1; i++) {
                Object step = steps.get(i);
                parent = step instanceof Integer idx ? parent.get(idx) : parent.get((String) step);
            }
            Object last = steps.get(steps.size() - 1);
            JsonNode changed = changed(node);
            if (last instanceof Integer idx) {
                ((ArrayNode) parent).set(idx, changed);
            } else {
                ((ObjectNode) parent).set((String) last, changed);
            }
            sink.accept(path, copy);
        }
    }

    private static JsonNode changed(JsonNode leaf) {
        if (leaf.isString()) {
            String s = leaf.stringValue();
            // Flip the last character, so base64 and hex stay well-formed but differ.
            char last = s.isEmpty() ? 'a' : s.charAt(s.length() - 1);
            char other = last == 'A' ? 'B' : 'A';
            return StrictJson.NODES.stringNode(s.isEmpty() ? "x" : s.substring(0, s.length() - 1) + other);
        }
        if (leaf.isNumber()) {
            return StrictJson.NODES.numberNode(leaf.doubleValue() + 1);
        }
        if (leaf.isBoolean()) {
            return StrictJson.NODES.booleanNode(!leaf.booleanValue());
        }
        return StrictJson.NODES.stringNode("null");
    }
}
