package dev.proofline.query.score;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ScoredAgents;
import dev.proofline.engine.EngineSettings;
import dev.proofline.engine.ReceiptAssembler;
import dev.proofline.engine.VerifyBlock;
import dev.proofline.reputation.AgentHistory;
import dev.proofline.reputation.TrustScore;
import java.time.Clock;
import java.util.Optional;
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

    public ScoreAnswers(EngineSettings settings, Attestor attestor, Clock clock) {
        this.settings = settings;
        this.attestor = attestor;
        this.clock = clock;
    }

    public ObjectNode score(String agentId, Optional<AgentHistory> history) {
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
        String now = ReceiptAssembler.timestamp(clock.instant());
        answer.put("computed_at", now);
        answer.set("verify", VerifyBlock.of(settings, attestor.keyVersion()));
        return attestor.attest(answer, AttestationContext.SCORE, now);
    }

    public ObjectNode reputation(String agentId, Optional<AgentHistory> history) {
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
                        .put("failed", p.failed()));
        return answer;
    }
}
