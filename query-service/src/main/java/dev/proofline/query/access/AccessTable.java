package dev.proofline.query.access;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Who reads what: every route Proofline serves and its {@link Audience}, in one table, enforced in
 * one place ({@link AccessFilter}) and printed in {@code docs/access.md} (a test keeps the two the
 * same). The HTTP server refuses to start with a route this table does not name.
 *
 * <p>A path template matches segment by segment: {@code {name}} is any one segment, a final
 * {@code **} any rest (including nothing).
 */
public final class AccessTable {
    /** One row: methods, path template, audience, and what it serves. */
    public record Rule(List<String> methods, String path, Audience audience, String serves) {
        boolean matches(String method, String requestPath) {
            return (methods.contains(method) || (method.equals("HEAD") && methods.contains("GET")))
                    && pathMatches(path, requestPath);
        }
    }

    private static final List<String> GET = List.of("GET");
    private static final List<String> POST = List.of("POST");

    public static final List<Rule> RULES = List.of(
            new Rule(POST, "/verify/schema", Audience.ANYONE, "verification; the caller is recorded as its submitter"),
            new Rule(POST, "/verify/deliverable", Audience.ANYONE, "the same"),
            new Rule(
                    List.of("POST", "DELETE"),
                    "/mcp",
                    Audience.ANYONE,
                    "MCP; its tools follow this table (verify_schema records its caller)"),
            new Rule(GET, "/score/**", Audience.ANYONE, "signed trust scores"),
            new Rule(GET, "/reputation/**", Audience.ANYONE, "pass/fail counts and score over time"),
            new Rule(GET, "/agents", Audience.ANYONE, "the leaderboard"),
            new Rule(GET, "/receipts/{verification_id}", Audience.SUBMITTER, "one signed receipt"),
            new Rule(
                    GET,
                    "/receipts/{verification_id}/proof",
                    Audience.SUBMITTER,
                    "the receipt's inclusion proof in the transparency log"),
            new Rule(GET, "/tlog/**", Audience.ANYONE, "the transparency log: checkpoint, tiles, entry bundles"),
            new Rule(GET, "/agents/{agent_id}/receipts", Audience.OPERATOR, "an agent's recent signed receipts"),
            new Rule(GET, "/feed/receipts", Audience.OPERATOR, "the live feed of receipts"),
            new Rule(GET, "/metrics", Audience.OPERATOR, "Prometheus metrics"),
            new Rule(GET, "/health", Audience.ANYONE, "health"),
            new Rule(GET, "/", Audience.ANYONE, "the route list"),
            new Rule(GET, "/openapi.json", Audience.ANYONE, "discovery"),
            new Rule(GET, "/llms.txt", Audience.ANYONE, "discovery"),
            new Rule(GET, "/llms-full.txt", Audience.ANYONE, "discovery"),
            new Rule(GET, "/docs/**", Audience.ANYONE, "interactive API documentation (Swagger UI)"),
            new Rule(GET, "/.well-known/**", Audience.ANYONE, "agent-card and public keys"),
            new Rule(GET, "/dashboard/**", Audience.ANYONE, "the dashboard page (it asks for a key to show receipts)"),
            new Rule(GET, "/subjects/**", Audience.REGISTRY_READERS, "schema registry: read"),
            new Rule(GET, "/schemas/**", Audience.REGISTRY_READERS, "schema registry: read"),
            new Rule(GET, "/config/**", Audience.REGISTRY_READERS, "schema registry: read"),
            new Rule(GET, "/mode/**", Audience.REGISTRY_READERS, "schema registry: read"),
            new Rule(POST, "/subjects/{subject}", Audience.REGISTRY_READERS, "schema registry: look a schema up"),
            new Rule(
                    List.of("POST", "PUT", "DELETE"),
                    "/subjects/**",
                    Audience.OPERATOR_OR_LOOPBACK,
                    "schema registry: write"),
            new Rule(POST, "/compatibility/**", Audience.OPERATOR_OR_LOOPBACK, "schema registry: compatibility"),
            new Rule(List.of("PUT"), "/config/**", Audience.OPERATOR_OR_LOOPBACK, "schema registry: write"),
            new Rule(GET, "/internal/**", Audience.INSTANCE, "one instance asking another"));

    private AccessTable() {}

    /** The rule for a request, if the table names it. */
    public static Optional<Rule> ruleFor(String method, String path) {
        return RULES.stream().filter(r -> r.matches(method, path)).findFirst();
    }

    /**
     * Who may call it. A path no rule names is served by no route either, so anyone gets its 404
     * document. A known path with a method no rule names gets the strictest audience of its rules
     * (an operator's path stays an operator's whatever the method), so no method slips past.
     */
    public static Audience audience(String method, String path) {
        return ruleFor(method, path)
                .map(Rule::audience)
                .orElseGet(() -> RULES.stream()
                        .filter(r -> pathMatches(r.path(), path))
                        .map(Rule::audience)
                        .max(Comparator.comparingInt(AccessTable::strictness))
                        .orElse(Audience.ANYONE));
    }

    private static int strictness(Audience audience) {
        return switch (audience) {
            case ANYONE, REGISTRY_READERS -> 0;
            case SUBMITTER -> 1;
            case OPERATOR_OR_LOOPBACK -> 2;
            case INSTANCE -> 3;
            case OPERATOR -> 4;
        };
    }

    /** Whether a route a server mounts is covered by a rule of its own. */
    public static boolean covers(String method, String routePath) {
        return ruleFor(method, routePath.replaceAll("\\{[^/}]+}", "x").replaceAll("<[^/>]+>", "x"))
                .isPresent();
    }

    /** The table as {@code docs/access.md} prints it. */
    public static String markdown() {
        StringBuilder md = new StringBuilder("| method | path | who may call it | serves |\n|---|---|---|---|\n");
        for (Rule rule : RULES) {
            md.append("| ")
                    .append(String.join(", ", rule.methods()))
                    .append(" | `")
                    .append(rule.path())
                    .append("` | ")
                    .append(rule.audience().description())
                    .append(" | ")
                    .append(rule.serves())
                    .append(" |\n");
        }
        return md.toString();
    }

    static boolean pathMatches(String template, String path) {
        String[] want = split(template);
        String[] have = split(path);
        for (int i = 0; i < want.length; i++) {
            if (want[i].equals("**")) {
                return true;
            }
            if (i >= have.length) {
                return false;
            }
            if (!(want[i].startsWith("{") && want[i].endsWith("}")) && !want[i].equals(have[i])) {
                return false;
            }
        }
        return want.length == have.length;
    }

    private static String[] split(String path) {
        String trimmed = path.startsWith("/") ? path.substring(1) : path;
        if (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed.isEmpty() ? new String[0] : trimmed.split("/", -1);
    }
}
