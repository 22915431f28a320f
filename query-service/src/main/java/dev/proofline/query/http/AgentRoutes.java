package dev.proofline.query.http;

import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ScoredAgents;
import dev.proofline.reputation.AgentHistory;
import dev.proofline.reputation.AgentSummary;
import dev.proofline.reputation.ReceiptPosition;
import dev.proofline.reputation.TrustScore;
import dev.proofline.reputation.query.AgentDirectory;
import dev.proofline.reputation.query.AgentHistories;
import dev.proofline.reputation.query.ReceiptLog;
import dev.proofline.schemas.avro.Receipt;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the dashboard reads, public like the scores: {@code GET /agents} (the leaderboard, from any
 * instance) and {@code GET /agents/{agent_id}/receipts} (the agent's recent signed receipts, read
 * back from the receipts topic), plus the internal route one instance asks another.
 */
public final class AgentRoutes implements RouteGroup {
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 1000;

    private final AgentDirectory directory;
    private final AgentHistories histories;
    private final ReceiptLog log;

    public AgentRoutes(AgentDirectory directory, AgentHistories histories, ReceiptLog log) {
        this.directory = directory;
        this.histories = histories;
        this.log = log;
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.routes.get("/agents", this::leaderboard);
        cfg.routes.get("/agents/{agent_id}/receipts", this::recentReceipts);
        cfg.routes.get(AgentDirectory.INTERNAL_PATH, this::localPart);
    }

    private void leaderboard(Context ctx) {
        AgentDirectory.Leaderboard board = directory.leaderboard(limit(ctx));
        ObjectNode body = agents(board.agents(), board.agentCount());
        body.put("instances", board.instances());
        body.put("complete", board.complete());
        body.put("score_method", TrustScore.METHOD);
        Responses.json(ctx, body.toString());
    }

    private void localPart(Context ctx) {
        AgentDirectory.LocalPart part = directory.local(limit(ctx));
        Responses.json(ctx, agents(part.best(), part.agentCount()).toString());
    }

    /** {"agent_id", "receipts": [signed receipts, newest first, exactly as signed], "missing": n}. */
    private void recentReceipts(Context ctx) {
        String agentId = ctx.pathParam("agent_id").trim();
        Optional<AgentHistory> history = ScoredAgents.isScored(agentId) ? histories.find(agentId) : Optional.empty();
        List<ReceiptPosition> recent = history.map(AgentHistory::recent).orElse(List.of()).stream()
                .map(AgentHistory.RecentReceipt::position)
                .toList();
        List<Optional<Receipt>> read = log.read(recent);
        StringBuilder json = new StringBuilder("{\"agent_id\":")
                .append(StrictJson.NODES.textNode(agentId))
                .append(",\"receipts\":[");
        int written = 0;
        for (Optional<Receipt> receipt : read) {
            if (receipt.isPresent()) {
                json.append(written++ == 0 ? "" : ",").append(receipt.get().getSignedJson());
            }
        }
        json.append("],\"missing\":").append(read.size() - written).append('}');
        Responses.json(ctx, json.toString());
    }

    /** {"agents": [rows, best first], "agent_count": n}: the leaderboard and each instance's part of it. */
    private static ObjectNode agents(List<AgentSummary> rows, long agentCount) {
        ObjectNode body = StrictJson.NODES.objectNode();
        ArrayNode agents = body.putArray("agents");
        rows.forEach(a -> agents.add(a.toJson()));
        body.put("agent_count", agentCount);
        return body;
    }

    private static int limit(Context ctx) {
        String raw = ctx.queryParam("limit");
        try {
            return raw == null ? DEFAULT_LIMIT : Math.max(1, Math.min(MAX_LIMIT, Integer.parseInt(raw.trim())));
        } catch (NumberFormatException e) {
            return DEFAULT_LIMIT;
        }
    }
}
