package dev.proofline.reputation;

import dev.proofline.contract.AgentIds;
import dev.proofline.schemas.avro.Receipt;
import java.util.Optional;

/**
 * Receipts Proofline could not have written. Only Proofline writes the receipts topic
 * ({@code docs/kafka.md}), but whoever can produce to it can write a record in the receipt's Avro
 * form with the registry's schema id. Its fields are held to what Proofline writes before they
 * reach a store: an agent history's binary form cannot hold a string of 65,536 bytes, and a stream
 * thread that fails on a record fails on it again each time it is replaced.
 */
final class ForeignReceipts {
    /** Far above a verification id (a UUID), a result (pass or fail) or a receipt time (32 characters). */
    static final int MAX_FIELD_LENGTH = 100;

    private ForeignReceipts() {}

    /** What makes this receipt one Proofline would not write, if anything. */
    static Optional<String> problem(Receipt receipt) {
        String agentId = receipt.getAgentId();
        if (agentId != null && AgentIds.problem(agentId).isPresent()) {
            return Optional.of("its agent_id is not an agent id");
        }
        if (!shortText(receipt.getVerificationId())) {
            return Optional.of("its verification_id is not an id");
        }
        if (!shortText(receipt.getResult())) {
            return Optional.of("its result is not a result");
        }
        if (!shortText(receipt.getVerifiedAt())) {
            return Optional.of("its verified_at is not a time");
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
