package dev.proofline.replay;

import dev.proofline.attestor.RequestHashes;
import dev.proofline.contract.ReceiptFields;
import dev.proofline.engine.SignedReceipt;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * What one verification said, kept small: a replay holds one per request it re-verified and one
 * per original it found, not the receipts themselves.
 *
 * @param result    {@code pass}, {@code fail}, or {@code invalid} (a dead letter)
 * @param blocking  the checks that blocked a pass, sorted
 * @param hashes    the hashes the receipt records, by name; compact receipts carry no request_hash
 * @param counted   whether the receipt counts toward its agent's score
 * @param errorCode the error document's code of a dead letter, else null
 */
record Outcome(String result, List<String> blocking, Map<String, String> hashes, boolean counted, String errorCode) {
    static final String INVALID = "invalid";

    Outcome {
        blocking = List.copyOf(blocking);
        // In the receipt's order, whatever map was given: the report lists hashes by iterating this,
        // and Map.copyOf's order changes from one JVM to the next (the same replay wrote other bytes).
        Map<String, String> ordered = new LinkedHashMap<>();
        for (String name : RequestHashes.NAMES) {
            if (hashes.containsKey(name)) {
                ordered.put(name, hashes.get(name));
            }
        }
        hashes = java.util.Collections.unmodifiableMap(ordered);
    }

    /** A receipt this replay signed: read from its values, not parsed back from its bytes. */
    static Outcome ofReceipt(SignedReceipt receipt) {
        Map<String, String> hashes = new LinkedHashMap<>();
        hashes.put("output_hash", receipt.outputHash());
        hashes.put("schema_hash", receipt.schemaHash());
        hashes.put("rules_hash", receipt.rulesHash());
        if (receipt.requestHash() != null) {
            hashes.put("request_hash", receipt.requestHash());
        }
        return new Outcome(
                receipt.result(),
                List.copyOf(new TreeSet<>(receipt.blockingChecks())),
                hashes,
                receipt.counted(),
                null);
    }

    /** An original receipt, read from the receipts topic. */
    static Outcome ofReceipt(JsonNode receipt) {
        TreeSet<String> blocking = new TreeSet<>();
        receipt.path("summary").path("blocking_checks").forEach(check -> blocking.add(check.asString()));
        Map<String, String> hashes = new LinkedHashMap<>();
        for (String name : RequestHashes.NAMES) {
            JsonNode hash = receipt.get(name);
            if (hash != null && hash.isString()) {
                hashes.put(name, hash.asString());
            }
        }
        return new Outcome(
                receipt.path(ReceiptFields.RESULT).asString(),
                List.copyOf(blocking),
                hashes,
                receipt.path("scoring").path("counted").asBoolean(true),
                null);
    }

    static Outcome ofDeadLetter(String errorCode) {
        return new Outcome(INVALID, List.of(), Map.of(), false, errorCode);
    }

    boolean isReceipt() {
        return !result.equals(INVALID);
    }
}
