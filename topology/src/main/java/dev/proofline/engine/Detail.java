package dev.proofline.engine;

/** The shape of an answer (SPEC section 2); never part of any hash. */
public enum Detail {
    FULL, COMPACT
}
