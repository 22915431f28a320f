package dev.proofline.client;

/** A receipt whose signature does not verify: never to be relied on. */
public final class InvalidReceiptException extends RuntimeException {
    private final String receipt;

    public InvalidReceiptException(String reason, String receipt) {
        super("invalid receipt: " + reason);
        this.receipt = receipt;
    }

    /** The receipt text as received. */
    public String receipt() {
        return receipt;
    }
}
