package dev.proofline.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.RequestHashes;
import dev.proofline.attestor.StrictJson;
import dev.proofline.reputation.TrustScore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ReplayReportTest {
    private static final Map<String, String> HASHES =
            Map.of("output_hash", "o", "schema_hash", "s", "rules_hash", "r1", "request_hash", "q1");
    private static final Map<String, String> NEW_RULES =
            Map.of("output_hash", "o", "schema_hash", "s", "rules_hash", "r2", "request_hash", "q2");
    private static final ReplayReport.Scope SCOPE =
            new ReplayReport.Scope("agent-outputs", "0", "end", Optional.of("r2"), Optional.empty(), "test");

    private static Outcome pass(Map<String, String> hashes) {
        return new Outcome("pass", List.of(), hashes, true, null);
    }

    private static Outcome fail(Map<String, String> hashes, String... checks) {
        return new Outcome("fail", List.of(checks), hashes, true, null);
    }

    private static Replayed replayed(int offset, String agent, Outcome candidate, Map<String, String> asRead) {
        return new Replayed(0, offset, 1000 + offset, new UUID(0, offset), agent, "task-" + offset, candidate, asRead);
    }

    @Test
    void changedHashesAreListedInTheReceiptsOrderWhateverTheMapGiven() {
        // Map.of iterates in an order that changes from one JVM to the next; the report must not.
        Map<String, String> changedSchema =
                Map.of("output_hash", "o", "schema_hash", "s2", "rules_hash", "r1", "request_hash", "q2");
        List<Replayed> replayed = List.of(replayed(
                0,
                "a",
                fail(changedSchema, "schema:maximum"),
                Map.of("output_hash", "x", "schema_hash", "x", "rules_hash", "x", "request_hash", "x")));
        JsonNode report = ReplayReport.of(SCOPE, replayed, Map.of(new UUID(0, 0), pass(HASHES)))
                .toJson();
        List<String> changed = new ArrayList<>(RequestHashes.NAMES);
        changed.retainAll(List.of("schema_hash", "request_hash"));
        assertEquals(changed, strings(report.at("/changes/0/hashes_changed")));
        assertEquals(RequestHashes.NAMES, strings(report.at("/altered/0/hashes_differing")));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(item -> out.add(item.asString()));
        return out;
    }

    @Test
    void receiptsWithoutAnAgentAreListedTogetherButNeverScored() {
        List<Replayed> replayed = List.of(
                replayed(0, null, pass(HASHES), HASHES), replayed(1, null, fail(NEW_RULES, "bounds:max"), HASHES));
        Map<UUID, Outcome> originals = Map.of(new UUID(0, 0), pass(HASHES), new UUID(0, 1), pass(HASHES));
        JsonNode anonymous = ReplayReport.of(SCOPE, replayed, originals)
                .toJson()
                .get("agents")
                .get(ReplayReport.NO_AGENT);
        assertEquals(2, anonymous.get("requests").asLong());
        for (String side : List.of("original", "candidate")) {
            assertTrue(anonymous.get(side).get("trust_score").isNull(), side);
            assertEquals(
                    0,
                    anonymous.get(side).get("passed").asLong()
                            + anonymous.get(side).get("failed").asLong());
        }
    }

    @Test
    void flipsChecksScoresAlteredAndMissingAreCountedPerAgentAndRule() {
        List<Replayed> replayed = new ArrayList<>();
        Map<UUID, Outcome> originals = new HashMap<>();
        // 0: pass -> fail under a new bound
        replayed.add(replayed(0, "a", fail(NEW_RULES, "bounds:max"), HASHES));
        originals.put(new UUID(0, 0), pass(HASHES));
        // 1: fail -> pass (the old sum rule dropped)
        replayed.add(replayed(1, "a", pass(NEW_RULES), HASHES));
        originals.put(new UUID(0, 1), fail(HASHES, "consistency:sum_equals"));
        // 2: fail -> fail, but blocked by another check
        replayed.add(replayed(2, "b", fail(NEW_RULES, "bounds:max"), HASHES));
        originals.put(new UUID(0, 2), fail(HASHES, "consistency:sum_equals"));
        // 3: pass -> pass, but the bytes read no longer hash as recorded
        replayed.add(replayed(3, "b", pass(NEW_RULES), Map.of("output_hash", "tampered")));
        originals.put(new UUID(0, 3), pass(HASHES));
        // 4: dead-lettered then, still invalid
        replayed.add(replayed(4, null, Outcome.ofDeadLetter("invalid_request"), Map.of()));
        originals.put(new UUID(0, 4), Outcome.ofDeadLetter("invalid_request"));
        // 5: no original found
        replayed.add(replayed(5, "test-x", pass(NEW_RULES), HASHES));

        JsonNode report = ReplayReport.of(SCOPE, replayed, originals).toJson();
        JsonNode totals = report.get("totals");
        assertEquals(6, totals.get("requests").asLong());
        assertEquals(5, totals.get("compared").asLong());
        assertEquals(1, totals.get("pass_to_fail").asLong());
        assertEquals(1, totals.get("fail_to_pass").asLong());
        assertEquals(3, totals.get("unchanged").asLong());
        assertEquals(1, totals.get("altered").asLong());
        assertEquals(1, totals.get("missing").asLong());
        assertEquals(1, totals.get("transitions").get("invalid_to_invalid").asLong());

        JsonNode a = report.get("agents").get("a");
        assertEquals(1, a.get("pass_to_fail").asLong());
        assertEquals(1, a.get("fail_to_pass").asLong());
        assertEquals(1, a.get("original").get("passed").asLong());
        assertEquals(1, a.get("candidate").get("passed").asLong());
        assertEquals(
                TrustScore.rounded(TrustScore.of(1, 1)),
                a.get("candidate").get("trust_score").asDouble());
        assertEquals(
                true,
                report.get("agents")
                        .get("test-x")
                        .get("candidate")
                        .get("trust_score")
                        .isNull(),
                "test- agents are never scored");
        assertEquals(
                1,
                report.get("agents").get(ReplayReport.NO_AGENT).get("requests").asLong());

        assertEquals(
                2, report.get("rules").get("bounds:max").get("newly_blocking").asLong());
        assertEquals(
                2,
                report.get("rules")
                        .get("consistency:sum_equals")
                        .get("no_longer_blocking")
                        .asLong());
        assertEquals(4, report.get("hash_changes").get("rules_hash").asLong());
        assertEquals(0, report.get("hash_changes").path("output_hash").asLong());

        assertEquals(3, report.get("changes").size(), "two flips and one change of blocking check");
        assertEquals(
                StrictJson.parse("[\"bounds:max\"]"),
                report.get("changes").get(2).get("blocking_added"));
        assertEquals(3, report.get("altered").get(0).get("offset").asLong());
        assertEquals(5, report.get("missing").get(0).get("offset").asLong());
    }

    @Test
    void theReportDependsOnWhatWasReplayedNotOnTheOrderItWasRead() {
        List<Replayed> replayed = new ArrayList<>();
        Map<UUID, Outcome> originals = new HashMap<>();
        for (int i = 0; i < 200; i++) {
            Outcome candidate = i % 3 == 0 ? fail(NEW_RULES, "bounds:max") : pass(NEW_RULES);
            replayed.add(new Replayed(i % 4, i, i, new UUID(1, i), "agent-" + (i % 5), "t" + i, candidate, HASHES));
            originals.put(new UUID(1, i), i % 7 == 0 ? fail(HASHES, "consistency:sum_equals") : pass(HASHES));
        }
        ReplayReport inOrder = ReplayReport.of(SCOPE, replayed, originals);
        List<Replayed> shuffled = new ArrayList<>(replayed);
        Collections.shuffle(shuffled, new Random(7));
        ReplayReport reordered = ReplayReport.of(SCOPE, shuffled, originals);
        assertEquals(inOrder.toJson(), reordered.toJson());
        assertEquals(inOrder.summary(), reordered.summary());
    }
}
