package dev.proofline.query.http;

import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.FieldProblem;
import dev.proofline.contract.ScoredAgents;
import dev.proofline.query.Answer;
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
 * What the dashboard reads: {@code GET /agents} (the leaderboard, from any instance, public like the
 * scores) and {@code GET /agents/{agent_id}/receipts} (the agent's recent signed receipts, read back
 * from the receipts topic, for operators), plus the internal route one instance asks another.
 */
public final class AgentRoutes implements RouteGroup {
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 1000;
    private static final java.util.regex.Pattern LIMIT_DIGITS = java.util.regex.Pattern.compile("0*([0-9]{1,4})");

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
        Optional<Integer> limit = requestedLimit(ctx);
        if (limit.isEmpty()) {
            Responses.send(
                    ctx,
                    Answer.error(ErrorDocument.invalidRequest(List.of(new FieldProblem(
                            "limit",
                            "is not a whole number from 1 to " + MAX_LIMIT,
                            "Send limit=1 to limit=" + MAX_LIMIT + ", or leave it out for " + DEFAULT_LIMIT + ".")))));
            return;
        }
        AgentDirectory.Leaderboard board = directory.leaderboard(limit.get());
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
        String agentId = ctx.pathParam("agent_id"); // not trimmed: " a" must not answer for "a"
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

    /** The caller's {@code limit}, 1 to {@link #MAX_LIMIT} (default {@link #DEFAULT_LIMIT}); empty if it is neither. */
    private static Optional<Integer> requestedLimit(Context ctx) {
        List<String> given = ctx.queryParams("limit");
        if (given.isEmpty()) {
            return Optional.of(DEFAULT_LIMIT);
        }
        String raw = given.get(0);
        // One limit, in ASCII digits: Java's parsing would also take a sign and other scripts' digits.
        // Leading zeros are taken however many (01 and 0001000 alike); past them, at most four digits.
        java.util.regex.Matcher digits = LIMIT_DIGITS.matcher(raw);
        if (given.size() > 1 || !digits.matches()) {
            return Optional.empty();
        }
        int limit = Integer.parseInt(digits.group(1));
        return limit >= 1 && limit <= MAX_LIMIT ? Optional.of(limit) : Optional.empty();
    }

    /** Between instances, which ask only with a limit a caller's request passed. */
    private static int limit(Context ctx) {
        return requestedLimit(ctx).orElse(DEFAULT_LIMIT);
    }
}
