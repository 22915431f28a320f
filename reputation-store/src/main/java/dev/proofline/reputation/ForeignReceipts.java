package dev.proofline.reputation;

import dev.proofline.contract.AgentIds;
import dev.proofline.schemas.avro.Receipt;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Receipts Proofline could not have written. Only Proofline writes the receipts topic
 * ({@code docs/kafka.md}), but whoever can produce to it can write a record in the receipt's Avro
 * form with the registry's schema id. Its fields are held to what Proofline writes before they
 * reach a store: an agent history's binary form cannot hold a string of 65,536 bytes, and a stream
 * thread that fails on a record fails on it again each time it is replaced; a receipt "verified"
 * in the year 9999 would move the daily counts' and the receipt index's stream time so far ahead
 * that every real receipt after it fell outside their windows.
 *
 * <p>Agent ids are held to the length every Proofline version kept to, not to today's character
 * rules: receipts written before those rules must still rebuild the same scores.
 */
final class ForeignReceipts {
    /** Far above a verification id (a UUID), a result (pass or fail) or a receipt time (32 characters). */
    static final int MAX_FIELD_LENGTH = 100;
    /** How far ahead of this instance's clock another instance's may be. */
    static final Duration MAX_CLOCK_AHEAD = Duration.ofDays(1);

    private ForeignReceipts() {}

    /** What makes this receipt one Proofline would not write, if anything. */
    static Optional<String> problem(Receipt receipt) {
        String agentId = receipt.getAgentId();
        if (agentId != null && agentId.codePointCount(0, agentId.length()) > AgentIds.MAX_CODE_POINTS) {
            return Optional.of("its agent_id is longer than any agent id");
        }
        if (!shortText(receipt.getVerificationId())) {
            return Optional.of("its verification_id is not an id");
        }
        if (!shortText(receipt.getResult())) {
            return Optional.of("its result is not a result");
        }
        OptionalLong verifiedAt =
                shortText(receipt.getVerifiedAt()) ? VerifiedAt.millis(receipt.getVerifiedAt()) : OptionalLong.empty();
        if (verifiedAt.isEmpty()) {
            return Optional.of("its verified_at is not a time");
        }
        if (verifiedAt.getAsLong() > System.currentTimeMillis() + MAX_CLOCK_AHEAD.toMillis()) {
            return Optional.of("its verified_at is more than a day ahead of this instance's clock");
        }
        return Optional.empty();
    }

    /** Printable ASCII, 1 to {@link #MAX_FIELD_LENGTH} characters. */
    private static boolean shortText(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_FIELD_LENGTH) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }
}
