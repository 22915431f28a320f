package dev.proofline.engine;

/** A validated numeric bound: every number at {@code path} must lie in [min, max] (either may be open). */
public record Bound(FieldPath path, Limit min, Limit max, boolean ifPresent) {
    /** One end of the range, with the number as the caller wrote it, for messages ({@code 0}, not {@code 0.0}). */
    public record Limit(double value, String text) {}
}
