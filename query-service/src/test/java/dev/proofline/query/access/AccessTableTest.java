package dev.proofline.query.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class AccessTableTest {
    @Test
    void docsPrintTheTableTheServerEnforces() throws Exception {
        Path docs = Path.of("..", "docs", "access.md");
        String text = Files.readString(docs);
        String start = "<!-- access-table:start -->\n";
        String table = text.substring(text.indexOf(start) + start.length(), text.indexOf("<!-- access-table:end -->"));
        assertEquals(AccessTable.markdown(), table, "docs/access.md's table differs from AccessTable.RULES");
    }

    @Test
    void routesGetTheirAudience() {
        assertEquals(Audience.SUBMITTER, AccessTable.audience("GET", "/receipts/0b0e-whatever"));
        assertEquals(Audience.OPERATOR, AccessTable.audience("GET", "/agents/seller-7/receipts"));
        assertEquals(Audience.ANYONE, AccessTable.audience("GET", "/agents"));
        assertEquals(Audience.OPERATOR, AccessTable.audience("GET", "/feed/receipts"));
        assertEquals(Audience.OPERATOR, AccessTable.audience("GET", "/metrics"));
        assertEquals(Audience.OPERATOR, AccessTable.audience("HEAD", "/metrics"));
        assertEquals(Audience.INSTANCE, AccessTable.audience("GET", "/internal/agent-history/x"));
        assertEquals(Audience.REGISTRY_READERS, AccessTable.audience("GET", "/subjects/receipts-value/versions"));
        assertEquals(Audience.REGISTRY_READERS, AccessTable.audience("POST", "/subjects/receipts-value"));
        assertEquals(Audience.REGISTRY_READERS, AccessTable.audience("GET", "/mode"));
        assertEquals(Audience.OPERATOR_OR_LOOPBACK, AccessTable.audience("POST", "/subjects/receipts-value/versions"));
        assertEquals(Audience.ANYONE, AccessTable.audience("GET", "/dashboard"));
        assertEquals(Audience.ANYONE, AccessTable.audience("GET", "/dashboard/app.js"));
        assertEquals(Audience.ANYONE, AccessTable.audience("GET", "/score/seller-7"));
        assertEquals(Audience.ANYONE, AccessTable.audience("GET", "/no/such/route"));
        // A method no rule names on a known path gets that path's strictest audience.
        assertEquals(Audience.OPERATOR, AccessTable.audience("POST", "/metrics"));
        assertEquals(Audience.OPERATOR, AccessTable.audience("PUT", "/agents/seller-7/receipts"));
        assertEquals(Audience.OPERATOR, AccessTable.audience("POST", "/feed/receipts"));
        assertEquals(Audience.INSTANCE, AccessTable.audience("POST", "/internal/agents"));
    }

    @Test
    void mountedRoutePatternsAreCovered() {
        for (String route : List.of(
                "/receipts/{verification_id}", "/agents/{agent_id}/receipts", "/score/{agent_id}", "/dashboard/")) {
            assertTrue(AccessTable.covers("GET", route), route);
        }
        assertFalse(AccessTable.covers("GET", "/a/new/route/nobody/listed"));
        assertFalse(AccessTable.covers("PATCH", "/agents"));
    }
}
