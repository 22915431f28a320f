package dev.proofline.query.score;

import dev.proofline.contract.AgentIds;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.FieldProblem;
import dev.proofline.contract.RequestFields;
import dev.proofline.contract.ScoredAgents;
import dev.proofline.contract.TimeArguments;
import dev.proofline.query.Answer;
import dev.proofline.reputation.AgentStanding;
import dev.proofline.reputation.query.AgentHistories;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * The score and history answers for an agent id, shared by REST and MCP: placeholders refused
 * with 400, ids no request could carry (too long, control characters...) with 422, and so are
 * look-alikes no request can carry now unless they have a history, {@code test-} ids answered
 * {@code no_data} without a lookup, 503 while no instance can
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
        return answer(agentId, null, true);
    }

    /** The signed score as of {@code asOf} (RFC 3339 or epoch milliseconds; null: now). */
    public Answer score(String agentId, String asOf) {
        return answer(agentId, asOf, true);
    }

    public Answer reputation(String agentId) {
        return answer(agentId, null, false);
    }

    public Answer reputation(String agentId, String asOf) {
        return answer(agentId, asOf, false);
    }

    private Answer answer(String rawAgentId, String rawAsOf, boolean signedScore) {
        if (ScoredAgents.isPlaceholder(rawAgentId)) {
            return Answer.error(ErrorDocument.placeholderAgentId());
        }
        String agentId = rawAgentId; // not trimmed: " a" is no id, and must not answer for "a"
        Optional<String> problem = AgentIds.queryProblem(agentId);
        if (problem.isPresent()) {
            // No stored id can have this problem (ids are checked where they enter, with more rules), so say why.
            return Answer.error(ErrorDocument.invalidRequest(List.of(new FieldProblem(
                    RequestFields.AGENT_ID, problem.get(), "Use an agent id of " + AgentIds.RULES + "."))));
        }
        Optional<Instant> asOf;
        try {
            asOf = rawAsOf == null ? Optional.empty() : Optional.of(TimeArguments.parse(rawAsOf.trim()));
        } catch (DateTimeParseException | NumberFormatException e) {
            return Answer.error(ErrorDocument.invalidRequest(List.of(new FieldProblem(
                    "as_of",
                    "is not a time",
                    "Send an RFC 3339 time such as 2026-11-30T12:00:00Z, or epoch milliseconds."))));
        }
        Optional<AgentStanding> standing =
                ScoredAgents.isScored(agentId) ? histories.standing(agentId) : Optional.empty();
        Optional<String> unenterable = standing.isEmpty() ? AgentIds.problem(agentId) : Optional.empty();
        if (unenterable.isPresent()) {
            // A look-alike no request can carry now (a test- look-alike, mixed scripts, not NFC): with
            // no history under it, a signed no_data answer would only lend it a clean look. An id an
            // earlier version took, and has receipts under, is still answered.
            return Answer.error(ErrorDocument.invalidRequest(List.of(new FieldProblem(
                    RequestFields.AGENT_ID, unenterable.get(), "Use an agent id of " + AgentIds.RULES + "."))));
        }
        if (asOf.isPresent()
                && standing.isPresent()
                && asOf.get().toEpochMilli()
                        < standing.get().history().decayed().anchorMillis()) {
            // Decayed counts are kept as of the latest receipt; earlier ones would count later receipts.
            return Answer.error(ErrorDocument.invalidRequest(List.of(new FieldProblem(
                    "as_of",
                    "is before the agent's latest counted receipt",
                    "Ask as of its latest receipt or later; /reputation's score_over_time shows earlier scores."))));
        }
        return Answer.ok(
                (signedScore ? answers.score(agentId, standing, asOf) : answers.reputation(agentId, standing, asOf))
                        .toString());
    }

    /** RFC 3339 (any offset) or epoch milliseconds, as replay's TIME arguments take them. */
}
