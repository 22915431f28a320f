package dev.proofline.cli;

import dev.proofline.access.AgentPatterns;
import dev.proofline.access.CallerRecord;
import dev.proofline.access.CallerRegistry;
import dev.proofline.access.CallerRole;
import dev.proofline.access.CallerTokens;
import dev.proofline.attestor.DeploymentSecret;
import dev.proofline.launcher.ProoflineSettings;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code proofline caller add NAME [--role caller|operator] [--allowance N|unlimited] [--agents
 * PATTERN,...]}, {@code caller revoke NAME} and {@code caller list}, with the settings {@code up}
 * takes (a config file, {@code --data-dir}, {@code --bootstrap-servers}...) to find the deployment's
 * Kafka and its secret. {@code add} prints the new token once, alone on stdout; only its hash is
 * stored. Every instance reads the callers topic, so a change takes effect everywhere within seconds.
 */
final class CallerCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        DeploymentArgs args = DeploymentArgs.parse(words, Set.of("role", "allowance", "agents"));
        List<String> positional = args.positional();
        Map<String, String> own = args.own();
        if (positional.isEmpty()) {
            throw new UsageException("caller add NAME | caller revoke NAME | caller list");
        }
        String action = positional.get(0);
        ProoflineSettings resolved = args.settings();
        DeploymentSecret secret = DeploymentSecret.open(resolved.keysDir());
        Map<String, Object> client = args.kafkaClient();
        try (CallerRegistry callers =
                CallerRegistry.open(client, resolved.access().callersTopic(), secret, Optional.empty(), Map.of())) {
            switch (action) {
                case "add" -> {
                    String name = name(positional);
                    if (callers.named(name).isPresent()) {
                        return nameTaken(callers, name, err);
                    }
                    String token = CallerTokens.newToken();
                    CallerRecord record;
                    try {
                        CallerRole role = CallerRole.parse(own.getOrDefault("role", "caller"));
                        record = new CallerRecord(
                                name,
                                role,
                                CallerTokens.hash(token),
                                // An operator's own pipelines are not metered; a caller gets the deployment's.
                                allowance(own.getOrDefault(
                                        "allowance", role == CallerRole.OPERATOR ? "unlimited" : "default")),
                                AgentPatterns.parse(own.get("agents")),
                                Instant.now(),
                                null);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException(e.getMessage());
                    }
                    switch (callers.add(record)) {
                        case NAME_TAKEN -> {
                            return nameTaken(callers, name, err); // since this started: another instance added it
                        }
                        case RACED -> {
                            err.println("proofline caller: another 'caller add " + name + "' ran at the same moment;"
                                    + " run this one again");
                            return 2;
                        }
                        case ADDED -> {}
                    }
                    out.println(token); // shown this once; only its hash is kept
                    err.println("proofline caller: added '" + name + "' ("
                            + record.role().label() + "); the token above is shown once");
                }
                case "revoke" -> {
                    String name = name(positional);
                    Optional<CallerRecord> existing = callers.named(name).filter(CallerRecord::active);
                    if (existing.isEmpty()) {
                        err.println("proofline caller: no active key named '" + name + "'");
                        return 2;
                    }
                    callers.put(existing.get().revoked(Instant.now()));
                    err.println("proofline caller: revoked '" + name + "'");
                }
                case "list" -> {
                    out.printf(
                            "%-24s %-9s %-10s %-24s %-8s %s%n",
                            "NAME", "ROLE", "ALLOWANCE", "CREATED", "STATE", "AGENTS");
                    for (CallerRecord c : callers.list()) {
                        out.printf(
                                "%-24s %-9s %-10s %-24s %-8s %s%n",
                                c.name(),
                                c.role().label(),
                                allowanceLabel(c.allowance()),
                                c.createdAt().toString(),
                                c.active() ? "active" : "revoked",
                                c.agents().patterns().isEmpty()
                                        ? "-"
                                        : c.agents().toString());
                    }
                }
                default -> throw new UsageException("unknown action '" + action + "': add, revoke or list");
            }
        }
        return 0;
    }

    /** The refusal of a name already issued: receipts and agent bindings belong to a name. */
    private static int nameTaken(CallerRegistry callers, String name, PrintStream err) {
        boolean active = callers.named(name).map(CallerRecord::active).orElse(true);
        err.println("proofline caller: '" + name + "' "
                + (active ? "exists" : "was revoked and is never issued again")
                + "; choose another name");
        return 2;
    }

    private static String name(List<String> positional) {
        if (positional.size() != 2) {
            throw new UsageException("needs exactly one NAME");
        }
        return positional.get(1);
    }

    /** As {@code --allowance} takes it: a number, {@code default} or {@code unlimited}. */
    static String allowanceLabel(Long allowance) {
        if (allowance == null) {
            return "default";
        }
        return allowance == CallerRecord.UNLIMITED ? "unlimited" : allowance.toString();
    }

    private static Long allowance(String text) {
        if (text.equals("unlimited")) {
            return CallerRecord.UNLIMITED;
        }
        if (text.equals("default")) {
            return null; // the deployment's allowance.per.day
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new UsageException("--allowance takes a number, 'default' or 'unlimited', not '" + text + "'");
        }
    }
}
