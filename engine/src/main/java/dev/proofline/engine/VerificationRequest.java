package dev.proofline.engine;

import dev.proofline.attestor.RequestHashes;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A request that passed every check of {@code docs/request.md}: typed, its paths parsed, its schema compiled
 * and its four hashes computed. Only {@link RequestParser} makes one.
 */
public record VerificationRequest(
        String taskId,
        String agentId,
        JsonNode expectedSchema,
        JsonNode submittedOutput,
        List<Rule> rules,
        List<Bound> bounds,
        boolean enforceRules,
        boolean strictContentCheck,
        Detail detail,
        RequestHashes hashes,
        CompiledSchema schema) {}
