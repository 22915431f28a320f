package dev.proofline.engine;

import tools.jackson.databind.JsonNode;

/**
 * A validated business rule. {@code referencePath} or {@code referenceConstant} (exactly one, and
 * neither for {@code unique}) is what the values at {@code field} are compared against.
 */
public record Rule(
        RuleType type,
        FieldPath field,
        FieldPath referencePath,
        JsonNode referenceConstant,
        double tolerance,
        boolean ifPresent) {}
