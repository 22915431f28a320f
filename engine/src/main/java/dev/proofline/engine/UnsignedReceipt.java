package dev.proofline.engine;

import dev.proofline.attestor.RequestHashes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * Everything a receipt says but its attestation, as plain values: what {@link ReceiptLayout} writes,
 * in the documented order to publish and in RFC 8785's order to sign.
 *
 * @param errors          the blocking findings, schema first: the {@code errors} and {@code errors_detail} lists
 * @param errorsKept      how many of them the lists keep ({@code errors_omitted} is the rest)
 * @param flags           the integrity findings, blocking or not
 * @param hints           every finding
 * @param verify          the {@code verify} object, written once per key version
 */
public record UnsignedReceipt(
        boolean pass,
        List<String> blockingChecks,
        String verificationId,
        String taskId,
        String agentId,
        RequestHashes hashes,
        boolean full,
        String verifiedAt,
        boolean enforceRules,
        boolean strictContentCheck,
        List<Finding> errors,
        int errorsKept,
        List<Finding> flags,
        int flagsKept,
        List<Finding> hints,
        int hintsKept,
        Ratio schemaCompliance,
        Ratio integrityChecks,
        Ratio overall,
        Scoring scoring,
        VerifyBlock.Written verify) {

    public UnsignedReceipt {
        // The lists are the checks' own; a receipt keeps what they held when it was gathered.
        blockingChecks = List.copyOf(blockingChecks);
        errors = List.copyOf(errors);
        flags = List.copyOf(flags);
        hints = List.copyOf(hints);
        if (errorsKept < 0
                || errorsKept > errors.size()
                || flagsKept < 0
                || flagsKept > flags.size()
                || hintsKept < 0
                || hintsKept > hints.size()) {
            throw new IllegalArgumentException("a list cannot keep more entries than it has");
        }
    }

    String result() {
        return pass ? "pass" : "fail";
    }

    /** {passed, total}, and their ratio rounded to 6 decimals; 1.0 when nothing was checked. */
    record Ratio(int passed, int total, double ratio) {
        Ratio(int passed, int total) {
            this(
                    passed,
                    total,
                    total == 0
                            ? 1.0
                            : BigDecimal.valueOf(passed)
                                    .divide(BigDecimal.valueOf(total), 6, RoundingMode.HALF_EVEN)
                                    .doubleValue());
        }
    }
}
