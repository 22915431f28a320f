package dev.proofline.reputation;

import java.util.Optional;

/** Where the score routes find an agent's history. */
public interface AgentHistories {
    /** The agent's history, or empty; throws {@link NotQueryableException} while the store moves. */
    Optional<AgentHistory> find(String agentId);

    /** The store cannot answer now (rebalance, restoration); the caller should retry. */
    final class NotQueryableException extends RuntimeException {
        public NotQueryableException(String message) {
            super(message);
        }
    }
}
