package dev.proofline.access;

import java.util.List;

/**
 * The agent ids a key owns: each pattern is an exact id ({@code seller-7}) or a prefix ending in
 * {@code *} ({@code invoice-*}). An agent id some key owns is "bound": only its owners' submissions
 * move its score.
 */
public record AgentPatterns(List<String> patterns) {
    public static final AgentPatterns NONE = new AgentPatterns(List.of());

    public AgentPatterns {
        patterns = List.copyOf(patterns);
        for (String pattern : patterns) {
            String stem = pattern.endsWith("*") ? pattern.substring(0, pattern.length() - 1) : pattern;
            if (stem.isEmpty() || stem.contains("*") || stem.isBlank()) {
                throw new IllegalArgumentException(
                        "an agent pattern is an id or a non-empty prefix followed by '*', not '" + pattern + "'");
            }
        }
    }

    /** Comma-separated, as {@code --agents} takes them. */
    public static AgentPatterns parse(String commaSeparated) {
        if (commaSeparated == null || commaSeparated.isBlank()) {
            return NONE;
        }
        return new AgentPatterns(List.of(commaSeparated.split(",")).stream()
                .map(String::trim)
                .filter(p -> !p.isEmpty())
                .toList());
    }

    public boolean matches(String agentId) {
        if (agentId == null) {
            return false;
        }
        for (String pattern : patterns) {
            if (pattern.endsWith("*")
                    ? agentId.startsWith(pattern.substring(0, pattern.length() - 1))
                    : agentId.equals(pattern)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return String.join(",", patterns);
    }
}
