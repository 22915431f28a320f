package dev.proofline.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.DeploymentSecret;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class CallerRecordsTest {
    private static final DeploymentSecret SECRET = DeploymentSecret.of(new byte[32]);
    private static final DeploymentSecret OTHER = DeploymentSecret.of("another deployment's secret!".getBytes());

    @Test
    void aRecordRoundTripsThroughItsJsonAndNeverHoldsTheToken() {
        String token = CallerTokens.newToken();
        CallerRecord record = new CallerRecord(
                "alice",
                CallerRole.CALLER,
                CallerTokens.hash(token),
                1000L,
                AgentPatterns.parse("seller-7, invoice-*"),
                Instant.parse("2026-11-30T12:00:00Z"),
                null);
        String json = record.toJson();
        assertFalse(json.contains(token));
        assertEquals(record, CallerRecord.fromJson(json));
        CallerRecord revoked = record.revoked(Instant.parse("2026-11-30T13:00:00Z"));
        assertFalse(revoked.active());
        assertEquals(revoked, CallerRecord.fromJson(revoked.toJson()));
        assertEquals("key:alice", record.submitter().id());
    }

    @Test
    void tokensAreLongRandomAndHashedAsSha256() {
        String a = CallerTokens.newToken();
        String b = CallerTokens.newToken();
        assertNotEquals(a, b);
        assertTrue(a.startsWith("pl_") && a.length() == 46, a);
        assertEquals(64, CallerTokens.hash(a).length());
        assertEquals(CallerTokens.hash(a), CallerTokens.hash(a));
    }

    @Test
    void namesAndPatternsAreChecked() {
        for (String bad : List.of("", "Alice", "-x", "a b", "#deployment", "x".repeat(65))) {
            assertThrows(
                    IllegalArgumentException.class,
                    () -> new CallerRecord(bad, CallerRole.CALLER, "h", null, AgentPatterns.NONE, Instant.EPOCH, null),
                    bad);
        }
        assertThrows(IllegalArgumentException.class, () -> AgentPatterns.parse("*"));
        assertThrows(IllegalArgumentException.class, () -> AgentPatterns.parse("a*b"));
        AgentPatterns patterns = AgentPatterns.parse("seller-7,invoice-*");
        assertTrue(patterns.matches("seller-7"));
        assertFalse(patterns.matches("seller-70"));
        assertTrue(patterns.matches("invoice-agent-01"));
        assertFalse(patterns.matches("invoice"));
        assertFalse(patterns.matches(null));
    }

    @Test
    void callerRecordsVerifyOnlyUnderTheirOwnSecretAndUnchanged() {
        SignedRecords signed = new SignedRecords(SECRET);
        RecordHeaders headers = new RecordHeaders();
        signed.sign(headers, "alice", "{\"role\":\"caller\"}");
        assertTrue(signed.verifies(headers, "alice", "{\"role\":\"caller\"}"));
        assertFalse(signed.verifies(headers, "alice", "{\"role\":\"operator\"}"), "a changed value");
        assertFalse(signed.verifies(headers, "mallory", "{\"role\":\"caller\"}"), "another key");
        assertFalse(new SignedRecords(OTHER).verifies(headers, "alice", "{\"role\":\"caller\"}"));
        assertFalse(signed.verifies(new RecordHeaders(), "alice", "{\"role\":\"caller\"}"), "no HMAC at all");
    }

    @Test
    void aSubmitterHeaderIsBelievedOnlyOnTheBytesItWasMadeFor() {
        SubmitterStamp stamp = new SubmitterStamp(SECRET);
        byte[] body = "{\"task_id\":\"t\"}".getBytes(StandardCharsets.UTF_8);
        RecordHeaders headers = new RecordHeaders();
        stamp.stamp(headers, Submitter.key("alice"), body);
        assertEquals(Submitter.key("alice"), stamp.submitter(headers, body));
        assertEquals(0, stamp.forgedCount());

        assertEquals(Submitter.KAFKA, stamp.submitter(headers, "{\"task_id\":\"u\"}".getBytes()), "other bytes");
        assertEquals(Submitter.KAFKA, new SubmitterStamp(OTHER).submitter(headers, body), "another secret");
        RecordHeaders forged = new RecordHeaders();
        forged.add(dev.proofline.contract.Headers.SUBMITTER, "key:operator".getBytes(StandardCharsets.UTF_8));
        assertEquals(Submitter.KAFKA, stamp.submitter(forged, body), "a name without its HMAC");
        assertEquals(2, stamp.forgedCount());
        assertEquals(Submitter.KAFKA, stamp.submitter(new RecordHeaders(), body), "a plain Kafka producer");
        assertEquals(2, stamp.forgedCount(), "no header is no forgery");
    }

    @Test
    void aSecretNeverShowsItselfAndDerivesOneKeyPerPurpose() {
        assertFalse(SECRET.toString().contains("AAAA"));
        assertNotEquals(
                java.util.HexFormat.of().formatHex(SECRET.keyFor("a")),
                java.util.HexFormat.of().formatHex(SECRET.keyFor("b")));
        assertNotEquals(SECRET.fingerprint(), OTHER.fingerprint());
    }
}
