package dev.proofline.load;

import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * Who sends what: {@code agents} invoice agents of different reliability. Agent k (from 0) gets a
 * defect with probability {@code failRatio * 2(k + 1/2) / agents} (capped at 1), so the mean is
 * {@code failRatio} while the first agents are careful and the last ones sloppy: a leaderboard
 * worth looking at. Which agent sends next, and which defect, come from the seed.
 */
public final class AgentMix {
    private static final Defect[] DEFECTS = {
        Defect.TOTAL_MISMATCH,
        Defect.DUPLICATE_SKU,
        Defect.MISSING_CURRENCY,
        Defect.ZERO_QUANTITY,
        Defect.MALFORMED_INVOICE_ID
    };

    /** One planned request: which agent, and what (if anything) it gets wrong. */
    public record Pick(String agentId, Defect defect) {}

    private final List<String> agentIds;
    private final double[] defectChance;
    private final Random random;

    public AgentMix(int agents, double failRatio, long seed) {
        if (agents < 1) {
            throw new IllegalArgumentException("--agents must be at least 1");
        }
        if (failRatio < 0 || failRatio > 1) {
            throw new IllegalArgumentException("--fail-ratio must be between 0 and 1");
        }
        this.agentIds = IntStream.range(0, agents)
                .mapToObj(k -> String.format("invoice-agent-%02d", k + 1))
                .toList();
        this.defectChance = IntStream.range(0, agents)
                .mapToDouble(k -> Math.min(1, failRatio * 2 * (k + 0.5) / agents))
                .toArray();
        this.random = new Random(seed);
    }

    public Pick next() {
        int k = random.nextInt(agentIds.size());
        Defect defect = random.nextDouble() < defectChance[k] ? DEFECTS[random.nextInt(DEFECTS.length)] : Defect.NONE;
        return new Pick(agentIds.get(k), defect);
    }

    public List<String> agentIds() {
        return agentIds;
    }

    public double defectChance(String agentId) {
        return defectChance[agentIds.indexOf(agentId)];
    }
}
