package dev.proofline.query.access;

/** Who may call a route ({@code docs/access.md}). */
public enum Audience {
    /** Anyone, with or without a key (a bad key is still refused). */
    ANYONE("anyone"),
    /**
     * Anyone, and an {@code Authorization} of another scheme than Bearer is ignored: schema
     * registry clients send the Basic credentials their configuration holds for whichever registry
     * it names, and the embedded registry's reads are public. A Bearer key is still checked.
     */
    REGISTRY_READERS("anyone (an Authorization other than Bearer is ignored)"),
    /**
     * Anyone identified (a key, or an anonymous client address); the route answers only with what
     * that caller submitted, and "not found" for the rest, whether it exists or not.
     */
    SUBMITTER("the caller that submitted it; operators"),
    /** Operator keys only. */
    OPERATOR("operators"),
    /** Other instances of this deployment (they prove the shared secret), and operators. */
    INSTANCE("instances of this deployment; operators"),
    /** Operators, or a request from this machine's loopback address that came through no proxy. */
    OPERATOR_OR_LOOPBACK("operators; this machine (loopback, no proxy)");

    private final String description;

    Audience(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
