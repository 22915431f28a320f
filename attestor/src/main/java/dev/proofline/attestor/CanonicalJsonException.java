package dev.proofline.attestor;

/**
 * A JSON value that has no RFC 8785 canonical form (a lone surrogate, a non-finite number) or a
 * document that is not strict JSON (a duplicate key, a syntax error). {@link #path()} says where.
 */
public final class CanonicalJsonException extends IllegalArgumentException {
    private final String path;
    private final String reason;

    public CanonicalJsonException(String path, String reason) {
        super(path.isEmpty() ? reason : path + ": " + reason);
        this.path = path;
        this.reason = reason;
    }

    /** What is wrong, without the path. */
    public String reason() {
        return reason;
    }

    /** The same problem one level down: inside the member {@code key} of an object. */
    CanonicalJsonException within(String key) {
        return new CanonicalJsonException("$." + key + path.substring(1), reason);
    }

    /** The same problem one level down: inside the element {@code index} of an array. */
    CanonicalJsonException within(int index) {
        return new CanonicalJsonException("$[" + index + "]" + path.substring(1), reason);
    }

    /** JSONPath-style location of the offending value, {@code $} for the root, empty when unknown. */
    public String path() {
        return path;
    }
}
