package dev.proofline.query.score;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ScoredAgents;
import dev.proofline.engine.EngineSettings;
import dev.proofline.engine.ReceiptAssembler;
import dev.proofline.engine.VerifyBlock;
import dev.proofline.reputation.AgentHistory;
import dev.proofline.reputation.AgentStanding;
import dev.proofline.reputation.DailyCounts;
import dev.proofline.reputation.DecayedCounts;
import dev.proofline.reputation.TrustScore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The answers of {@code GET /score/{agent_id}} (signed with the trust-score context, its inputs
 * shown so anyone can recompute it) and {@code GET /reputation/{agent_id}} (the plain history).
 */
public final class ScoreAnswers {
    private final EngineSettings settings;
    private final Attestor attestor;
    private final Clock clock;
    private final Duration halfLife;

    public ScoreAnswers(EngineSettings settings, Attestor attestor, Clock clock, Duration halfLife) {
        this.settings = settings;
        this.attestor = attestor;
        this.clock = clock;
        this.halfLife = halfLife;
    }

    /**
     * The signed score. {@code trust_score} stays the lifetime figure; {@code decayed_score} weighs
     * each receipt by half every half-life up to {@code as_of} (now unless asked), and {@code windows}
     * counts the UTC day of {@code as_of} and the 7 and 30 days ending with it.
     */
    public ObjectNode score(String agentId, Optional<AgentStanding> standing, Optional<Instant> asOf) {
        Optional<AgentHistory> history = standing.map(AgentStanding::history);
        ObjectNode answer = StrictJson.NODES.objectNode();
        answer.put("agent_id", agentId);
        ObjectNode inputs;
        if (history.isEmpty() || history.get().total() == 0) {
            answer.put("reason", "no_data");
            answer.putNull("trust_score");
            answer.put("score_method", TrustScore.METHOD);
            inputs =
                    answer.putObject("inputs").put("passed", 0).put("failed", 0).put("total", 0);
            inputs.putNull("pass_rate");
            if (ScoredAgents.isTestAgent(agentId)) {
                answer.put("note", "test- agent ids are verified for real but never scored");
            }
        } else {
            AgentHistory h = history.get();
            answer.put("trust_score", TrustScore.rounded(h.trustScore()));
            answer.put("score_method", TrustScore.METHOD);
            inputs = answer.putObject("inputs")
                    .put("passed", h.passed())
                    .put("failed", h.failed())
                    .put("total", h.total());
            inputs.put("pass_rate", TrustScore.rounded((double) h.passed() / h.total()));
            answer.put("first_verified_at", h.firstVerifiedAt());
            answer.put("last_verified_at", h.lastVerifiedAt());
            answer.put("last_result", h.lastResult());
        }
        overTime(answer, standing, asOf);
        String now = ReceiptAssembler.timestamp(clock.instant());
        answer.put("computed_at", now);
        answer.set("verify", VerifyBlock.of(settings, attestor.keyVersion()));
        return attestor.attest(answer, AttestationContext.SCORE, now);
    }

    public ObjectNode reputation(String agentId, Optional<AgentStanding> standing, Optional<Instant> asOf) {
        Optional<AgentHistory> history = standing.map(AgentStanding::history);
        ObjectNode answer = StrictJson.NODES.objectNode();
        answer.put("agent_id", agentId);
        AgentHistory h = history.orElse(AgentHistory.empty(agentId));
        answer.put("passed", h.passed());
        answer.put("failed", h.failed());
        answer.put("total", h.total());
        answer.put("first_verified_at", h.firstVerifiedAt());
        answer.put("last_verified_at", h.lastVerifiedAt());
        answer.put("last_result", h.lastResult());
        if (h.total() == 0) {
            // As /score says it: no history is no score, not a score of zero.
            answer.putNull("trust_score");
            answer.put("reason", "no_data");
        } else {
            answer.put("trust_score", TrustScore.rounded(h.trustScore()));
        }
        answer.put("score_method", TrustScore.METHOD);
        ArrayNode recent = answer.putArray("recent_receipts");
        h.recent()
                .forEach(r -> recent.addObject()
                        .put("verification_id", r.verificationId())
                        .put("result", r.result())
                        .put("verified_at", r.verifiedAt()));
        ArrayNode overTime = answer.putArray("score_over_time");
        h.timeline()
                .forEach(p -> overTime.addObject()
                        .put("at", p.at())
                        .put("trust_score", TrustScore.rounded(p.trustScore()))
                        .put("passed", p.passed())
                        .put("failed", p.failed())
                        .put(
                                "decayed_score",
                                Double.isNaN(p.decayedScore()) ? null : TrustScore.rounded(p.decayedScore())));
        overTime(answer, standing, asOf);
        return answer;
    }

    /** Days as the setting gives them (30, not 30.0), a fraction only when there is one. */
    private JsonNode halfLifeDays() {
        long millis = halfLife.toMillis();
        return millis % 86_400_000L == 0
                ? StrictJson.NODES.numberNode(millis / 86_400_000L)
                : StrictJson.NODES.numberNode(millis / 86_400_000d);
    }

    /** {@code decayed_score}, {@code decay} and {@code windows}, as of {@code asOf} or now. */
    private void overTime(ObjectNode answer, Optional<AgentStanding> standing, Optional<Instant> asOf) {
        DecayedCounts counts = standing.map(s -> s.history().decayed()).orElse(DecayedCounts.NONE);
        // Never before the latest receipt: another instance's clock may trail this one's by a little.
        long at = asOf.orElse(clock.instant()).toEpochMilli();
        long when = counts.anchorMillis() == Long.MIN_VALUE ? at : Math.max(at, counts.anchorMillis());
        DecayedCounts decayed = counts.asOf(when, halfLife);
        // Null only without history: far enough ahead every weight underflows to 0, and the
        // formula's score for n = 0 is 0, not "no data".
        if (counts.anchorMillis() != Long.MIN_VALUE) {
            answer.put("decayed_score", TrustScore.rounded(decayed.score()));
        } else {
            answer.putNull("decayed_score");
        }
        ObjectNode decay =
                answer.putObject("decay").put("method", DecayedCounts.METHOD).put("score_method", TrustScore.METHOD);
        decay.set("half_life_days", halfLifeDays());
        decay.put("as_of", ReceiptAssembler.timestamp(Instant.ofEpochMilli(when)))
                .put("effective_n", TrustScore.rounded(decayed.effectiveN()));
        ObjectNode windows = answer.putObject("windows");
        Map<String, DailyCounts> counted =
                AgentStanding.windows(standing.map(AgentStanding::days).orElse(List.of()), when);
        counted.forEach(
                (name, c) -> windows.putObject(name).put("passed", c.passed()).put("failed", c.failed()));
    }
}
