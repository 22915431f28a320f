package dev.proofline.access;

import dev.proofline.attestor.StrictJson;
import java.time.Instant;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One key as the callers topic keeps it: its name (the record key), role, the SHA-256 of its token
 * (never the token), its daily free allowance ({@code null}: the deployment's
 * {@code allowance.per.day}; {@link #UNLIMITED}: no limit), the agent ids it owns, and when
 * it was made and, once revoked, when that happened. A revoked key stays listed, so its history
 * reads, and is never accepted again.
 */
public record CallerRecord(
        String name,
        CallerRole role,
        String tokenSha256,
        Long allowance,
        AgentPatterns agents,
        Instant createdAt,
        Instant revokedAt) {
    /** An allowance without limit (an operator's own pipelines). */
    public static final long UNLIMITED = Long.MAX_VALUE;

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

    public CallerRecord {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "a caller name is 1 to 64 of a-z, 0-9, '.', '_', '-', starting with a letter or digit");
        }
        if (allowance != null && allowance < 0) {
            throw new IllegalArgumentException("an allowance is a count of zero or more, or 'unlimited'");
        }
    }

    public boolean active() {
        return revokedAt == null;
    }

    public CallerRecord revoked(Instant at) {
        return new CallerRecord(name, role, tokenSha256, allowance, agents, createdAt, at);
    }

    /** The submitter id its verifications carry. */
    public Submitter submitter() {
        return Submitter.key(name);
    }

    public String toJson() {
        ObjectNode json = StrictJson.NODES.objectNode();
        json.put("name", name);
        json.put("role", role.label());
        json.put("token_sha256", tokenSha256);
        if (allowance == null) {
            json.putNull("allowance");
        } else if (allowance == UNLIMITED) {
            json.put("allowance", "unlimited");
        } else {
            json.put("allowance", allowance);
        }
        json.putArray("agents")
                .addAll(agents.patterns().stream()
                        .map(StrictJson.NODES::textNode)
                        .toList());
        json.put("created_at", createdAt.toString());
        if (revokedAt == null) {
            json.putNull("revoked_at");
        } else {
            json.put("revoked_at", revokedAt.toString());
        }
        return json.toString();
    }

    public static CallerRecord fromJson(String text) {
        JsonNode json = StrictJson.parse(text);
        java.util.List<String> agents = new java.util.ArrayList<>();
        json.path("agents").forEach(a -> agents.add(a.asString()));
        return new CallerRecord(
                json.path("name").asString(),
                CallerRole.parse(json.path("role").asString()),
                json.path("token_sha256").asString(),
                json.path("allowance").isNumber()
                        ? Long.valueOf(json.get("allowance").asLong())
                        : "unlimited".equals(json.path("allowance").asString("")) ? Long.valueOf(UNLIMITED) : null,
                new AgentPatterns(agents),
                Instant.parse(json.path("created_at").asString()),
                json.path("revoked_at").isString()
                        ? Instant.parse(json.get("revoked_at").asString())
                        : null);
    }
}
