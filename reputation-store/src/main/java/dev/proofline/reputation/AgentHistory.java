package dev.proofline.reputation;

import dev.proofline.schemas.avro.Receipt;
import java.util.ArrayList;
import java.util.List;

/**
 * One agent's record, folded from its receipts in topic order: counts, first and last verification
 * time, last result, and its most recent receipts (newest first).
 */
public record AgentHistory(String agentId, long passed, long failed, String firstVerifiedAt, String lastVerifiedAt,
                           String lastResult, List<RecentReceipt> recent) {
    public static final int RECENT = 20;

    public record RecentReceipt(String verificationId, String result, String verifiedAt) {
    }

    public AgentHistory {
        recent = List.copyOf(recent);
    }

    public static AgentHistory empty(String agentId) {
        return new AgentHistory(agentId, 0, 0, null, null, null, List.of());
    }

    /** Only these receipts count: an agent id that is set and not reserved for examples. */
    public static boolean counts(Receipt receipt) {
        String agent = receipt.getAgentId();
        return agent != null && !agent.isEmpty() && !agent.startsWith("test-");
    }

    public AgentHistory with(Receipt receipt) {
        boolean pass = "pass".equals(receipt.getResult());
        List<RecentReceipt> newest = new ArrayList<>(RECENT);
        newest.add(new RecentReceipt(receipt.getVerificationId(), receipt.getResult(), receipt.getVerifiedAt()));
        newest.addAll(recent.subList(0, Math.min(recent.size(), RECENT - 1)));
        return new AgentHistory(receipt.getAgentId(), passed + (pass ? 1 : 0), failed + (pass ? 0 : 1),
                firstVerifiedAt == null ? receipt.getVerifiedAt() : firstVerifiedAt, receipt.getVerifiedAt(),
                receipt.getResult(), newest);
    }

    public long total() {
        return passed + failed;
    }

    public double trustScore() {
        return TrustScore.of(passed, failed);
    }
}
