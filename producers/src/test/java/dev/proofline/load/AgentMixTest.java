package dev.proofline.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgentMixTest {
    @Test
    void theMeanDefectShareIsTheFailRatioAndLaterAgentsAreSloppier() {
        AgentMix mix = new AgentMix(8, 0.2, 42);
        Map<String, int[]> seen = new HashMap<>();
        int defects = 0;
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            AgentMix.Pick pick = mix.next();
            int[] c = seen.computeIfAbsent(pick.agentId(), a -> new int[2]);
            c[0]++;
            if (pick.defect() != Defect.NONE) {
                c[1]++;
                defects++;
            }
        }
        assertEquals(0.2, (double) defects / n, 0.005);
        assertEquals(8, seen.size());
        assertEquals(0.2 / 8, mix.defectChance("invoice-agent-01"), 1e-12);
        double previous = -1;
        for (String agent : mix.agentIds()) {
            double share = (double) seen.get(agent)[1] / seen.get(agent)[0];
            assertEquals(mix.defectChance(agent), share, 0.01, agent);
            assertTrue(share > previous, "agents are ordered from careful to sloppy");
            previous = share;
        }
    }

    @Test
    void theSameSeedPlansTheSameLoad() {
        AgentMix a = new AgentMix(5, 0.3, 7);
        AgentMix b = new AgentMix(5, 0.3, 7);
        for (int i = 0; i < 1000; i++) {
            assertEquals(a.next(), b.next());
        }
        InvoiceRequests x = new InvoiceRequests(7);
        InvoiceRequests y = new InvoiceRequests(7);
        assertEquals(x.request("a", "t", Defect.NONE), y.request("a", "t", Defect.NONE));
    }

    @Test
    void nonsenseSettingsAreRefusedWithTheFlagNamed() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new AgentMix(0, 0.1, 1))
                .getMessage()
                .contains("--agents"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new AgentMix(3, 1.5, 1))
                .getMessage()
                .contains("--fail-ratio"));
    }
}
