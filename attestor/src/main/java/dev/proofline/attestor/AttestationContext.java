package dev.proofline.attestor;

/**
 * What a signature attests to. The strings are the reference service's, kept verbatim so verifier
 * code written for it verifies Proofline's answers unchanged ({@code docs/signing.md}).
 */
public enum AttestationContext {
    VERIFY("json-schema-verifier/verify-schema-attestation/v1"),
    SCORE("json-schema-verifier/trust-score-attestation/v1");

    private final String id;

    AttestationContext(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** Accepts the CLI's short names ({@code verify}, {@code score}) and the full strings. */
    public static AttestationContext parse(String name) {
        for (AttestationContext context : values()) {
            if (context.name().equalsIgnoreCase(name) || context.id.equals(name)) {
                return context;
            }
        }
        throw new IllegalArgumentException("unknown context '" + name + "': use verify or score");
    }
}
