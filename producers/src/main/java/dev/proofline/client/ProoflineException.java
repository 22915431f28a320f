package dev.proofline.client;

import dev.proofline.contract.ErrorCode;
import java.util.Optional;

/**
 * Proofline refused a request or could not answer it. {@link #errorCode()} is the stable code of
 * {@code docs/errors.md} as the shared {@link ErrorCode} (empty for a code this client version does
 * not know; {@link #code()} always has the text), and the message is the service's.
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

    /** The code as sent, e.g. {@code invalid_request}. */
    public String code() {
        return code;
    }

    /** The code as the shared enum, to switch on; empty for a code newer than this client. */
    public Optional<ErrorCode> errorCode() {
        return Optional.ofNullable(ErrorCode.fromCode(code));
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

    /** A verification id: a UUID in lower-case hex. */
    static final java.util.regex.Pattern VERIFICATION_ID =
            java.util.regex.Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private static final java.util.regex.Pattern PENDING_ID =
            java.util.regex.Pattern.compile("verification_id (" + VERIFICATION_ID.pattern() + ")");

    /**
     * For {@code receipt_pending}: the verification id the request was accepted under. It is
     * verified, and charged, already: fetch its receipt with {@link ProoflineClient#receipt} rather
     * than sending the request again, which would verify (and charge) it a second time.
     */
    public Optional<String> pendingVerificationId() {
        if (!code.equals("receipt_pending")) {
            return Optional.empty();
        }
        java.util.regex.Matcher id = PENDING_ID.matcher(getMessage());
        return id.find() ? Optional.of(id.group(1)) : Optional.empty();
    }
}
