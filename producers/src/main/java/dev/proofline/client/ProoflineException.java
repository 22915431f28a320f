package dev.proofline.client;

/**
 * Proofline refused a request or could not answer it; {@link #code()} is the stable error code of
 * SPEC section 6 ({@code invalid_request}, {@code receipt_pending}, ...) and the message is the service's.
 */
public final class ProoflineException extends RuntimeException {
    private final String code;
    private final int status;
    private final boolean retryable;
    private final String document;

    public ProoflineException(String code, int status, boolean retryable, String message, String document) {
        super(code + ": " + message);
        this.code = code;
        this.status = status;
        this.retryable = retryable;
        this.document = document;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }

    public boolean retryable() {
        return retryable;
    }

    /** The whole error document as the service sent it (fields, next_actions, retry_after). */
    public String document() {
        return document;
    }
}
