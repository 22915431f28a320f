package dev.proofline.engine;

import dev.proofline.contract.ReceiptTimes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Gathers what the receipt of {@code docs/receipt.md} says from a request's checks: the verdict, the
 * blocking checks, the lists and how many of each are kept (lists are capped; each carries
 * {@code <name>_total} and {@code <name>_omitted}), and the ratios. {@link ReceiptLayout} writes it.
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

    /** The last key version's {@code verify} object, written once; a new key version writes it anew. */
    private volatile VerifyBlock.Written verify;

    UnsignedReceipt assemble(
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
        List<Finding> errors = new ArrayList<>(schemaFindings);
        for (Finding finding : integrityFindings) {
            if (finding.blocking()) {
                blocking.add(finding.check());
                errors.add(finding);
            }
        }
        List<Finding> all = new ArrayList<>(schemaFindings);
        all.addAll(integrityFindings);
        return new UnsignedReceipt(
                blocking.isEmpty(),
                List.copyOf(blocking),
                verificationId.toString(),
                request.taskId(),
                request.agentId(),
                request.hashes(),
                request.detail() == Detail.FULL,
                verifiedAt,
                request.enforceRules(),
                request.strictContentCheck(),
                errors,
                kept(errors),
                integrityFindings,
                kept(integrityFindings),
                all,
                kept(all),
                new UnsignedReceipt.Ratio(schema.passed(), schema.total()),
                new UnsignedReceipt.Ratio(integrity.passed(), integrity.total()),
                new UnsignedReceipt.Ratio(schema.passed() + integrity.passed(), schema.total() + integrity.total()),
                scoring,
                verifyBlock(keyVersion));
    }

    private VerifyBlock.Written verifyBlock(String keyVersion) {
        VerifyBlock.Written written = verify;
        if (written == null || !written.keyVersion().equals(keyVersion)) {
            written = VerifyBlock.Written.of(settings, keyVersion);
            verify = written;
        }
        return written;
    }

    /** How many entries of a list the receipt keeps: at most the cap, and what fits in {@link #LIST_BYTES}. */
    private int kept(List<Finding> findings) {
        return fitting(findings, Math.min(findings.size(), settings.listCap()));
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
}
