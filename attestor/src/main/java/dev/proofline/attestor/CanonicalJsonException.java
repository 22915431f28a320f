package dev.proofline.attestor;

/**
 * A JSON value that has no RFC 8785 canonical form (a lone surrogate, a non-finite number) or a
 * document that is not strict JSON (a duplicate key, a syntax error). {@link #path()} says where.
 */
public final class CanonicalJsonException extends IllegalArgumentException {
    private final String path;

    public CanonicalJsonException(String path, String message) {
        super(path.isEmpty() ? message : path + ": " + message);
        this.path = path;
    }

    /** JSONPath-style location of the offending value, {@code $} for the root, empty when unknown. */
    public String path() {
        return path;
    }
}
