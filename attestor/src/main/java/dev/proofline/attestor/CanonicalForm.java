package dev.proofline.attestor;

/**
 * A value's RFC 8785 bytes with their SHA-256, kept so that a value sent again (a pipeline's
 * {@code expected_schema}, request after request) is not canonicalized and hashed again. Immutable:
 * the bytes are only ever copied out, into another canonical document.
 */
public final class CanonicalForm {
    private final byte[] bytes;
    private final int size;
    private final String sha256Hex;

    private CanonicalForm(byte[] bytes, int size, String sha256Hex) {
        this.bytes = bytes;
        this.size = size;
        this.sha256Hex = sha256Hex;
    }

    /** Takes over what a writer wrote; the writer must not be written to afterwards. */
    static CanonicalForm takenFrom(CanonicalWriter writer) {
        return new CanonicalForm(writer.buffer(), writer.size(), writer.sha256Hex());
    }

    /** Lowercase hex SHA-256 of the canonical bytes. */
    public String sha256Hex() {
        return sha256Hex;
    }

    /** Length of the canonical bytes. */
    public int size() {
        return size;
    }

    void appendTo(CanonicalWriter writer) {
        writer.canonical(bytes, size);
    }
}
