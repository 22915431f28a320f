package dev.proofline.replay;

import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.AgentIds;
import dev.proofline.contract.ScoredAgents;
import dev.proofline.reputation.TrustScore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a replay found, as {@code report.json} and {@code summary.txt}. Both are functions of the
 * records replayed, their originals and the candidate only (no run time, no end offsets), so the
 * same replay run twice writes the same bytes.
 */
public final class ReplayReport {
    /** Where requests without an agent id are counted. */
    static final String NO_AGENT = "(no agent_id)";

    /** What was replayed and against what; printed at the top of both files. */
    public record Scope(
            String topic,
            String from,
            String to,
            Optional<String> rulesHash,
            Optional<String> schemaHash,
            String verifierVersion) {}

    private static final class Tally {
        long requests;
        long missing;
        long altered;
        final Map<String, Long> transitions = new TreeMap<>();
        final long[] original = new long[2]; // passed, failed: counted receipts only
        final long[] candidate = new long[2];

        long transition(String from, String to) {
            return transitions.getOrDefault(from + "_to_" + to, 0L);
        }

        long unchanged() {
            return transition("pass", "pass") + transition("fail", "fail") + transition("invalid", "invalid");
        }
    }

    private final Scope scope;
    private final Tally total = new Tally();
    private final Map<String, Tally> agents = new TreeMap<>();
    private final Map<String, long[]> rules = new TreeMap<>(); // newly blocking, no longer blocking
    private final Map<String, Long> hashChanges = new TreeMap<>();
    private final Map<Integer, long[]> partitions = new TreeMap<>(); // first, last, count
    private final ArrayNode changes = StrictJson.NODES.arrayNode();
    private final ArrayNode altered = StrictJson.NODES.arrayNode();
    private final ArrayNode missing = StrictJson.NODES.arrayNode();

    private ReplayReport(Scope scope) {
        this.scope = scope;
    }

    static ReplayReport of(Scope scope, List<Replayed> replayed, Map<UUID, Outcome> originals) {
        ReplayReport report = new ReplayReport(scope);
        replayed.stream()
                .sorted(Comparator.comparingInt(Replayed::partition).thenComparingLong(Replayed::offset))
                .forEach(r -> report.add(r, originals.get(r.verificationId())));
        return report;
    }

    public long requests() {
        return total.requests;
    }

    public long passToFail() {
        return total.transition("pass", "fail");
    }

    public long failToPass() {
        return total.transition("fail", "pass");
    }

    public long altered() {
        return total.altered;
    }

    public long missing() {
        return total.missing;
    }

    private void add(Replayed r, Outcome original) {
        String agent = r.agentId() == null ? NO_AGENT : r.agentId();
        Tally tally = agents.computeIfAbsent(agent, a -> new Tally());
        long[] partition = partitions.computeIfAbsent(r.partition(), p -> new long[] {r.offset(), r.offset(), 0});
        partition[1] = r.offset();
        partition[2]++;
        total.requests++;
        tally.requests++;
        if (original == null) {
            total.missing++;
            tally.missing++;
            missing.add(position(r));
            return;
        }
        Outcome candidate = r.candidate();
        String transition = original.result() + "_to_" + candidate.result();
        total.transitions.merge(transition, 1L, Long::sum);
        tally.transitions.merge(transition, 1L, Long::sum);
        countForScore(r.agentId(), original, candidate, tally); // the real id: null is never scored
        List<String> added = List.of();
        List<String> removed = List.of();
        List<String> changedHashes = new ArrayList<>();
        if (original.isReceipt() && candidate.isReceipt()) {
            added = minus(candidate.blocking(), original.blocking());
            removed = minus(original.blocking(), candidate.blocking());
            added.forEach(check -> rules.computeIfAbsent(check, c -> new long[2])[0]++);
            removed.forEach(check -> rules.computeIfAbsent(check, c -> new long[2])[1]++);
            original.hashes().forEach((name, hash) -> {
                String now = candidate.hashes().get(name);
                if (now != null && !now.equals(hash)) {
                    changedHashes.add(name);
                    hashChanges.merge(name, 1L, Long::sum);
                }
            });
        }
        if (!original.result().equals(candidate.result()) || !added.isEmpty() || !removed.isEmpty()) {
            ObjectNode change = position(r);
            change.put("original", original.result());
            change.put("candidate", candidate.result());
            strings(change.putArray("blocking_added"), added);
            strings(change.putArray("blocking_removed"), removed);
            strings(change.putArray("hashes_changed"), changedHashes);
            if (candidate.errorCode() != null) {
                change.put("candidate_error", candidate.errorCode());
            }
            changes.add(change);
        }
        List<String> differing = new ArrayList<>();
        original.hashes().forEach((name, recorded) -> {
            if (!recorded.equals(r.asRead().get(name))) {
                differing.add(name);
            }
        });
        if (!differing.isEmpty()) {
            total.altered++;
            tally.altered++;
            ObjectNode entry = position(r);
            strings(entry.putArray("hashes_differing"), differing);
            altered.add(entry);
        }
    }

    /**
     * The score each agent has over the replayed stretch, now and under the candidate: receipts that
     * counted count again (a request once dead-lettered counts if the candidate makes it a receipt).
     */
    private void countForScore(String agent, Outcome original, Outcome candidate, Tally tally) {
        if (!ScoredAgents.isScored(agent)) {
            return;
        }
        if (original.isReceipt() && original.counted()) {
            tally.original[original.result().equals("pass") ? 0 : 1]++;
        }
        if (candidate.isReceipt() && (!original.isReceipt() || original.counted())) {
            tally.candidate[candidate.result().equals("pass") ? 0 : 1]++;
        }
    }

    /** The report as written to {@code report.json}. */
    public ObjectNode toJson() {
        ObjectNode json = StrictJson.NODES.objectNode();
        json.put("report", "proofline-replay");
        json.put("format", 1);
        json.put("verifier_version", scope.verifierVersion());
        ObjectNode range = json.putObject("range");
        range.put("topic", scope.topic());
        range.put("from", scope.from());
        range.put("to", scope.to());
        ArrayNode read = range.putArray("partitions");
        partitions.forEach((p, span) -> read.addObject()
                .put("partition", p)
                .put("first_offset", span[0])
                .put("last_offset", span[1])
                .put("requests", span[2]));
        ObjectNode candidate = json.putObject("candidate");
        candidate.put("rules_hash", scope.rulesHash().orElse(null));
        candidate.put("schema_hash", scope.schemaHash().orElse(null));
        json.set("totals", tallyJson(total));
        ObjectNode byAgent = json.putObject("agents");
        agents.forEach((agent, tally) -> {
            ObjectNode entry = tallyJson(tally);
            entry.set("original", scoreJson(tally.original));
            entry.set("candidate", scoreJson(tally.candidate));
            byAgent.set(agent, entry);
        });
        ObjectNode byRule = json.putObject("rules");
        rules.forEach((check, counts) ->
                byRule.putObject(check).put("newly_blocking", counts[0]).put("no_longer_blocking", counts[1]));
        ObjectNode hashes = json.putObject("hash_changes");
        hashChanges.forEach(hashes::put);
        json.set("changes", changes.deepCopy());
        json.set("altered", altered.deepCopy());
        json.set("missing", missing.deepCopy());
        return json;
    }

    /** The report as written to {@code summary.txt}: the same figures, for people. */
    public String summary() {
        StringBuilder out = new StringBuilder();
        out.append("Proofline replay of ")
                .append(scope.topic())
                .append(", from ")
                .append(scope.from());
        out.append(" to ").append(scope.to()).append('\n');
        out.append("candidate rules: ")
                .append(scope.rulesHash().map(h -> "rules_hash " + h).orElse("each request's own"))
                .append("; schema: ")
                .append(scope.schemaHash().map(h -> "schema_hash " + h).orElse("each request's own"))
                .append("; verifier ")
                .append(scope.verifierVersion())
                .append("\n\n");
        out.append(String.format(
                "%d requests: %d compared with their original, %d without one (expired or still in flight)%n",
                total.requests, total.requests - total.missing, total.missing));
        out.append(String.format(
                "verdicts: %d pass_to_fail, %d fail_to_pass, %d unchanged",
                passToFail(), failToPass(), total.unchanged()));
        total.transitions.forEach((t, n) -> {
            if (!List.of("pass_to_fail", "fail_to_pass", "pass_to_pass", "fail_to_fail", "invalid_to_invalid")
                    .contains(t)) {
                out.append(", ").append(n).append(' ').append(t);
            }
        });
        out.append(String.format("%naltered requests (no longer match their receipt's hashes): %d%n%n", total.altered));
        out.append(String.format(
                "%-32s %8s %10s %10s %12s %12s%n",
                "agent", "requests", "pass>fail", "fail>pass", "score now", "candidate"));
        agents.forEach((agent, t) -> out.append(String.format(
                "%-32s %8d %10d %10d %12s %12s%n",
                printable(agent),
                t.requests,
                t.transition("pass", "fail"),
                t.transition("fail", "pass"),
                score(t.original).map(s -> String.format("%.4f", s)).orElse("-"),
                score(t.candidate).map(s -> String.format("%.4f", s)).orElse("-"))));
        out.append('\n');
        if (rules.isEmpty()) {
            out.append("no check became or stopped being blocking\n");
        } else {
            out.append(String.format("%-40s %16s %20s%n", "check", "newly blocking", "no longer blocking"));
            rules.forEach((check, n) -> out.append(String.format("%-40s %16d %20d%n", check, n[0], n[1])));
        }
        if (!hashChanges.isEmpty()) {
            out.append("\nhashes that changed: ");
            List<String> parts = new ArrayList<>();
            hashChanges.forEach((name, n) -> parts.add(name + " " + n));
            out.append(String.join(", ", parts)).append('\n');
        }
        return out.toString();
    }

    private static ObjectNode tallyJson(Tally tally) {
        ObjectNode json = StrictJson.NODES.objectNode();
        json.put("requests", tally.requests);
        json.put("compared", tally.requests - tally.missing);
        json.put("pass_to_fail", tally.transition("pass", "fail"));
        json.put("fail_to_pass", tally.transition("fail", "pass"));
        json.put("unchanged", tally.unchanged());
        json.put("altered", tally.altered);
        json.put("missing", tally.missing);
        ObjectNode transitions = json.putObject("transitions");
        tally.transitions.forEach(transitions::put);
        return json;
    }

    private static ObjectNode scoreJson(long[] counts) {
        ObjectNode json = StrictJson.NODES.objectNode();
        json.put("passed", counts[0]);
        json.put("failed", counts[1]);
        json.put("method", TrustScore.METHOD);
        Optional<Double> score = score(counts);
        if (score.isPresent()) {
            json.put("trust_score", score.get());
        } else {
            json.putNull("trust_score");
        }
        return json;
    }

    private static Optional<Double> score(long[] counts) {
        return counts[0] + counts[1] == 0
                ? Optional.empty()
                : Optional.of(TrustScore.rounded(TrustScore.of(counts[0], counts[1])));
    }

    private static ObjectNode position(Replayed r) {
        ObjectNode json = StrictJson.NODES.objectNode();
        json.put("partition", r.partition());
        json.put("offset", r.offset());
        json.put("verification_id", r.verificationId().toString());
        json.put("agent_id", r.agentId());
        json.put("task_id", r.taskId());
        return json;
    }

    private static List<String> minus(List<String> a, List<String> b) {
        TreeSet<String> difference = new TreeSet<>(a);
        b.forEach(difference::remove);
        return List.copyOf(difference);
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    /**
     * An agent id as the terminal should show it: control, format (bidi) and other invisible
     * characters as {@code \\uXXXX}, so an id taken from a Kafka record cannot move the cursor,
     * retitle the window or reorder the line.
     */
    static String printable(String id) {
        StringBuilder out = new StringBuilder(id.length());
        id.codePoints().forEach(c -> {
            if (AgentIds.isInvisible(c) || c == '\\') {
                for (char unit : Character.toChars(c)) {
                    out.append(String.format("\\u%04x", (int) unit));
                }
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }
}
