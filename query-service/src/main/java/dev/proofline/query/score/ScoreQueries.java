package dev.proofline.query.score;

import dev.proofline.contract.AgentIds;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.FieldProblem;
import dev.proofline.contract.RequestFields;
import dev.proofline.contract.ScoredAgents;
import dev.proofline.query.Answer;
import dev.proofline.reputation.AgentHistory;
import dev.proofline.reputation.query.AgentHistories;
import java.util.List;
import java.util.Optional;

/**
 * The score and history answers for an agent id, shared by REST and MCP: placeholders refused
 * with 400, ids no request could carry (too long, control characters...) with 422, {@code test-} ids answered {@code no_data} without a lookup, 503 while no instance can
 * answer (thrown as {@code NotQueryableException}, mapped in one place by the caller's layer).
 */
public final class ScoreQueries {
    private final AgentHistories histories;
    private final ScoreAnswers answers;

    public ScoreQueries(AgentHistories histories, ScoreAnswers answers) {
        this.histories = histories;
        this.answers = answers;
    }

    public Answer score(String agentId) {
        return answer(agentId, true);
    }

    public Answer reputation(String agentId) {
        return answer(agentId, false);
    }

    private Answer answer(String rawAgentId, boolean signedScore) {
        if (ScoredAgents.isPlaceholder(rawAgentId)) {
            return Answer.error(ErrorDocument.placeholderAgentId());
        }
        String agentId = rawAgentId.trim();
        Optional<String> problem = AgentIds.problem(agentId);
        if (problem.isPresent()) {
            // No stored id can have this problem (ids are checked where they enter), so say why.
            return Answer.error(ErrorDocument.invalidRequest(List.of(new FieldProblem(
                    RequestFields.AGENT_ID, problem.get(), "Use an agent id of " + AgentIds.RULES + "."))));
        }
        Optional<AgentHistory> history = ScoredAgents.isScored(agentId) ? histories.find(agentId) : Optional.empty();
        return Answer.ok(
                (signedScore ? answers.score(agentId, history) : answers.reputation(agentId, history)).toString());
    }
}
