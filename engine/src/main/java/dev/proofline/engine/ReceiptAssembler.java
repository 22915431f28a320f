package dev.proofline.engine;

import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ReceiptTimes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Lays out the receipt body of {@code docs/receipt.md}, full or compact, keys in the documented order.
 * Lists are capped; each carries {@code <name>_total} and {@code <name>_omitted}.
 */
public final class ReceiptAssembler {

    private final EngineSettings settings;

    ReceiptAssembler(EngineSettings settings) {
        this.settings = settings;
    }

    /** The timestamp form of signed answers ({@link ReceiptTimes}). */
    public static String timestamp(Instant instant) {
        return ReceiptTimes.format(instant);
    }

    /** The most each of the four lists may take as canonical JSON: four of them stay well under 1 MB. */
    static final long LIST_BYTES = 128 * 1024;

    /**
     * The largest signed receipt, in bytes of compact JSON: the four lists at their most and room for
     * everything else (ids of at most 200 characters, hashes, counts, the attestation). Kafka's
     * default record limit (1 MB) takes it; a receipts topic made with less may not.
     */
    public static final int LARGEST_RECEIPT_BYTES = (int) (4 * LIST_BYTES) + 64 * 1024;

    ObjectNode assemble(
            VerificationRequest request,
            UUID verificationId,
            String verifiedAt,
            String keyVersion,
            CheckTally schema,
            CheckTally integrity,
            Scoring scoring) {
        List<Finding> schemaFindings = schema.findings();
        List<Finding> integrityFindings = integrity.findings();
        Set<String> blocking = new LinkedHashSet<>();
        schemaFindings.forEach(f -> blocking.add(f.check()));
        integrityFindings.stream().filter(Finding::blocking).forEach(f -> blocking.add(f.check()));
        boolean pass = blocking.isEmpty();
        String result = pass ? "pass" : "fail";

        ObjectNode receipt = StrictJson.NODES.objectNode();
        ObjectNode summary = receipt.putObject("summary");
        summary.put("result", result);
        ArrayNode blockingChecks = summary.putArray("blocking_checks");
        blocking.forEach(blockingChecks::add);
        nextActions(receipt.putArray("next_actions"), pass);
        receipt.put("result", result);
        receipt.put("verification_id", verificationId.toString());
        receipt.put("task_id", request.taskId());
        receipt.put("agent_id", request.agentId());
        receipt.put("output_hash", request.hashes().outputHash());
        receipt.put("schema_hash", request.hashes().schemaHash());
        receipt.put("rules_hash", request.hashes().rulesHash());
        boolean full = request.detail() == Detail.FULL;
        if (full) {
            receipt.put("request_hash", request.hashes().requestHash());
        }
        receipt.put("verified_at", verifiedAt);
        receipt.put("verifier_version", EngineSettings.VERIFIER_VERSION);
        receipt.put("enforce_rules", request.enforceRules());
        receipt.put("strict_content_check", request.strictContentCheck());
        if (full) {
            List<Finding> errors = new java.util.ArrayList<>(schemaFindings);
            integrityFindings.stream().filter(Finding::blocking).forEach(errors::add);
            List<Finding> all = new java.util.ArrayList<>(schemaFindings);
            all.addAll(integrityFindings);
            capped(receipt, "errors", errors, f -> StrictJson.NODES.stringNode(f.message()));
            capped(receipt, "errors_detail", errors, ReceiptAssembler::errorDetail);
            capped(receipt, "flags", integrityFindings, ReceiptAssembler::flag);
            capped(receipt, "hints", all, ReceiptAssembler::hint);
            ratio(receipt.putObject("schema_compliance"), schema.passed(), schema.total());
            ratio(receipt.putObject("integrity_checks"), integrity.passed(), integrity.total());
            ratio(
                    receipt.putObject("overall"),
                    schema.passed() + integrity.passed(),
                    schema.total() + integrity.total());
        }
        if (!scoring.counted()) {
            receipt.putObject("scoring").put("counted", false).put("reason", scoring.reason());
        }
        receipt.set("verify", VerifyBlock.of(settings, keyVersion));
        return receipt;
    }

    private static void nextActions(ArrayNode actions, boolean pass) {
        if (pass) {
            actions.addObject().put("action", "attach_receipt").put("for", "seller");
            actions.addObject().put("action", "proceed_to_payment").put("for", "buyer");
        } else {
            actions.addObject().put("action", "repair_and_reverify").put("using", "hints");
            actions.addObject().put("action", "withhold_payment").put("for", "buyer");
        }
    }

    private void capped(ObjectNode receipt, String name, List<Finding> findings, Function<Finding, JsonNode> render) {
        ArrayNode list = receipt.putArray(name);
        int kept = fitting(findings, Math.min(findings.size(), settings.listCap()));
        for (int i = 0; i < kept; i++) {
            list.add(render.apply(findings.get(i)));
        }
        receipt.put(name + "_total", findings.size());
        receipt.put(name + "_omitted", findings.size() - kept);
    }

    /**
     * How many of the first {@code most} findings a list keeps within {@link #LIST_BYTES}. A receipt
     * must fit in one Kafka record (1 MB by default) and in one signature (AWS-LC signs at most
     * 1 MiB); findings are short, but their paths repeat the output's keys, which may be 50,000
     * characters each. Nearly always the quick bound settles it without reading a character.
     */
    static int fitting(List<Finding> findings, int most) {
        long quick = 0;
        for (int i = 0; i < most; i++) {
            quick += findings.get(i).quickBound();
        }
        if (quick <= LIST_BYTES) {
            return most;
        }
        long used = 0;
        for (int i = 0; i < most; i++) {
            used += findings.get(i).encodedBound();
            if (used > LIST_BYTES) {
                return i;
            }
        }
        return most;
    }

    private static JsonNode errorDetail(Finding f) {
        return StrictJson.NODES
                .objectNode()
                .put("check", f.check())
                .put("path", f.path())
                .put("expected", f.expected())
                .put("found", f.found())
                .put("message", f.message());
    }

    private static JsonNode flag(Finding f) {
        return StrictJson.NODES
                .objectNode()
                .put("check", f.check())
                .put("field", f.field())
                .put("severity", f.blocking() ? "error" : "warning")
                .put("detail", f.detail());
    }

    private static JsonNode hint(Finding f) {
        return StrictJson.NODES
                .objectNode()
                .put("source", f.source().wireName())
                .put("check", f.check())
                .put("path", f.path())
                .put("expected", f.expected())
                .put("found", f.found());
    }

    /** {ratio, passed, total}; the ratio is rounded to 6 decimals, and 1.0 when nothing was checked. */
    private static void ratio(ObjectNode node, int passed, int total) {
        double ratio = total == 0
                ? 1.0
                : BigDecimal.valueOf(passed)
                        .divide(BigDecimal.valueOf(total), 6, RoundingMode.HALF_EVEN)
                        .doubleValue();
        node.put("ratio", ratio);
        node.put("passed", passed);
        node.put("total", total);
    }
}
