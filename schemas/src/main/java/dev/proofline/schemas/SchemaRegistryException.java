package dev.proofline.schemas;

/** A schema registry refused a call or could not be reached; {@link #errorCode()} is Confluent's. */
public final class SchemaRegistryException extends RuntimeException {
    private final int errorCode;

    /** The longest message kept: Avro's reasons quote the schema, and subjects may be long. */
    static final int MAX_MESSAGE = 500;

    public SchemaRegistryException(int errorCode, String message) {
        super(dev.proofline.contract.ShortText.atMost(message, MAX_MESSAGE));
        this.errorCode = errorCode;
    }

    public int errorCode() {
        return errorCode;
    }

    /** The HTTP status Confluent's API pairs with the error code (40401 → 404). */
    public int httpStatus() {
        return errorCode >= 10000 ? errorCode / 100 : 500;
    }
}
