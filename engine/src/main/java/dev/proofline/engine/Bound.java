package dev.proofline.engine;

/** A validated numeric bound: every number at {@code path} must lie in [min, max] (either may be open). */
public record Bound(FieldPath path, Double min, Double max, boolean ifPresent) {}
