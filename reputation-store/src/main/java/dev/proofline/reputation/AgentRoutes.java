package dev.proofline.reputation;

import dev.proofline.attestor.StrictJson;
import dev.proofline.engine.ErrorDocument;
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
public final class AgentRoutes {
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

    public void mount(JavalinConfig cfg) {
        cfg.routes.get("/agents", this::leaderboard);
        cfg.routes.get("/agents/{agent_id}/receipts", this::recentReceipts);
        cfg.routes.get(AgentDirectory.INTERNAL_PATH, this::localPart);
    }

    private void leaderboard(Context ctx) {
        try {
            AgentDirectory.Leaderboard board = directory.leaderboard(limit(ctx));
            ObjectNode body = agents(board.agents(), board.agentCount());
            body.put("instances", board.instances());
            body.put("complete", board.complete());
            body.put("score_method", TrustScore.METHOD);
            ctx.contentType("application/json").result(body.toString());
        } catch (AgentHistories.NotQueryableException e) {
            notReady(ctx);
        }
    }

    private void localPart(Context ctx) {
        try {
            AgentDirectory.LocalPart part = directory.local(limit(ctx));
            ctx.contentType("application/json").result(agents(part.best(), part.agentCount()).toString());
        } catch (AgentHistories.NotQueryableException e) {
            notReady(ctx);
        }
    }

    /** {"agent_id", "receipts": [signed receipts, newest first, exactly as signed], "missing": n}. */
    private void recentReceipts(Context ctx) {
        String agentId = ctx.pathParam("agent_id").trim();
        try {
            Optional<AgentHistory> history = agentId.isEmpty() || agentId.startsWith("test-")
                    ? Optional.empty() : histories.find(agentId);
            List<ReceiptPosition> recent = history.map(AgentHistory::recent).orElse(List.of()).stream()
                    .map(AgentHistory.RecentReceipt::position).toList();
            List<Optional<Receipt>> read = log.read(recent);
            StringBuilder json = new StringBuilder("{\"agent_id\":").append(StrictJson.NODES.textNode(agentId))
                    .append(",\"receipts\":[");
            int written = 0;
            for (Optional<Receipt> receipt : read) {
                if (receipt.isPresent()) {
                    json.append(written++ == 0 ? "" : ",").append(receipt.get().getSignedJson());
                }
            }
            json.append("],\"missing\":").append(read.size() - written).append('}');
            ctx.contentType("application/json").result(json.toString());
        } catch (AgentHistories.NotQueryableException e) {
            notReady(ctx);
        }
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

    private static void notReady(Context ctx) {
        VerificationFrontDoor.error(ErrorDocument.notReady(ScoreQueries.RETRY_AFTER_SECONDS)).writeTo(ctx);
    }
}
