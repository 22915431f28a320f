package dev.proofline.reputation;

import dev.proofline.engine.ErrorDocument;
import java.util.Optional;
import java.util.Set;

/**
 * The score and history answers for an agent id, shared by REST and MCP: placeholders refused
 * with 400, {@code test-} ids answered {@code no_data} without a lookup, 503 while no instance can
 * answer.
 */
public final class ScoreQueries {
    static final int RETRY_AFTER_SECONDS = 2;
    private static final Set<String> PLACEHOLDERS = Set.of("{agent_id}", ":agent_id", "agent_id", "<agent_id>");

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
        String agentId = rawAgentId == null ? "" : rawAgentId.trim();
        if (agentId.isEmpty() || PLACEHOLDERS.contains(agentId)) {
            return VerificationFrontDoor.error(ErrorDocument.placeholderAgentId());
        }
        try {
            Optional<AgentHistory> history = agentId.startsWith("test-") ? Optional.empty() : histories.find(agentId);
            return new Answer(200, (signedScore ? answers.score(agentId, history) : answers.reputation(agentId, history)).toString());
        } catch (AgentHistories.NotQueryableException e) {
            return VerificationFrontDoor.error(ErrorDocument.notReady(RETRY_AFTER_SECONDS));
        }
    }
}
