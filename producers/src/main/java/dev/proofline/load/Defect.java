package dev.proofline.load;

/**
 * The mistakes the load generator makes on purpose, each one a real agent would make. All but
 * {@link #NONE} end in a {@code fail} receipt: the invoice's schema and rules catch every one.
 */
public enum Defect {
    NONE,
    /** The total is not the sum of the line totals (rule {@code sum_equals}). */
    TOTAL_MISMATCH,
    /** Two lines bill the same SKU (rule {@code unique}). */
    DUPLICATE_SKU,
    /** The currency is left out (schema {@code required}). */
    MISSING_CURRENCY,
    /** A line with quantity 0 (schema {@code minimum}). */
    ZERO_QUANTITY,
    /** An invoice number in the wrong format (schema {@code pattern}). */
    MALFORMED_INVOICE_ID
}
