package dev.proofline.reputation.query;

import dev.proofline.reputation.AgentHistory;
import dev.proofline.reputation.AgentStanding;
import java.util.Optional;

/** Where the score queries find an agent's history. */
public interface AgentHistories {
    /** The agent's history, or empty; throws {@link NotQueryableException} while the store moves. */
    Optional<AgentHistory> find(String agentId);

    /** The agent's history with its daily windows, or empty; throws like {@link #find}. */
    Optional<AgentStanding> standing(String agentId);
}
