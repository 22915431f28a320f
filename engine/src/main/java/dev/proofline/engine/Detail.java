package dev.proofline.engine;

/** The shape of an answer ({@code docs/receipt.md}); never part of any hash. */
public enum Detail {
    FULL,
    COMPACT
}
