package dev.proofline.attestor;

/** Whether a signed answer verified, and if not, why, in one line a person can act on. */
public record VerificationOutcome(boolean valid, String reason) {
    public static final VerificationOutcome VALID = new VerificationOutcome(true, "valid");

    public static VerificationOutcome invalid(String reason) {
        return new VerificationOutcome(false, reason);
    }

    @Override
    public String toString() {
        return valid ? "valid" : "invalid: " + reason;
    }
}
