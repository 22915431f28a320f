package dev.proofline.contract;

/**
 * One problem with one request field: which field ({@code rules[0].type}), what is wrong, and how
 * to fix it. Never carries the caller's value.
 */
public record FieldProblem(String field, String problem, String fix) {}
