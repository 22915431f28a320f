package dev.proofline.reputation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A leaderboard row keeps its time compactly and always gives back the exact text it was given. */
class AgentSummaryTest {

    @Test
    void everyTimeComesBackAsItWasGiven() {
        for (String time : Arrays.asList(
                "2026-12-03T14:09:21.187000+00:00", // the receipt form: kept as microseconds
                "1970-01-01T00:00:00.000000+00:00",
                "9999-12-31T23:59:59.999999+00:00",
                "2026-12-03T14:09:21.187Z", // other forms: kept as text
                "2026-12-03T15:09:21.187000+01:00",
                "2023-02-29T00:00:00.000000+00:00",
                "t5",
                "",
                null)) {
            AgentSummary row = new AgentSummary("agent-1", 3, 1, time, "pass");
            assertEquals(time, row.lastVerifiedAt());
            AgentSummary read = AgentSummary.fromJson(row.toJson());
            assertEquals(row, read, String.valueOf(time));
            assertEquals(row.hashCode(), read.hashCode());
            if (time == null) {
                assertNull(row.toJson().get("last_verified_at").asString(null));
            } else {
                assertEquals(time, row.toJson().get("last_verified_at").asString());
            }
        }
    }

    @Test
    void rowsAreEqualExactlyWhenEveryFieldIs() {
        AgentSummary row = new AgentSummary("a", 3, 1, "2026-12-03T14:09:21.187000+00:00", "pass");
        for (AgentSummary other : List.of(
                new AgentSummary("b", 3, 1, "2026-12-03T14:09:21.187000+00:00", "pass"),
                new AgentSummary("a", 4, 1, "2026-12-03T14:09:21.187000+00:00", "pass"),
                new AgentSummary("a", 3, 2, "2026-12-03T14:09:21.187000+00:00", "pass"),
                new AgentSummary("a", 3, 1, "2026-12-03T14:09:21.187001+00:00", "pass"),
                new AgentSummary("a", 3, 1, "2026-12-03T14:09:21.187Z", "pass"),
                new AgentSummary("a", 3, 1, null, "pass"),
                new AgentSummary("a", 3, 1, "2026-12-03T14:09:21.187000+00:00", "fail"))) {
            assertNotEquals(row, other, other.toString());
        }
        assertEquals(row, new AgentSummary("a", 3, 1, "2026-12-03T14:09:21.187000+00:00", "pass"));
    }
}
