package dev.proofline.reputation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.schemas.avro.Receipt;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentHistoryTest {
    private static final java.time.Duration HALF_LIFE = java.time.Duration.ofDays(30);

    private static Receipt receipt(int i, Instant at, String result) {
        return TestReceipts.receipt(i, "seller", result, at.toString().replace("Z", "") + "+00:00");
    }

    @Test
    void aReceiptMarkedNotCountedNeverCountsNorDoTestOrAnonymousOnes() {
        Receipt counted = TestReceipts.receipt(1, "seller", "pass", "2026-11-29T10:00:00.000000+00:00");
        assertTrue(AgentHistory.counts(counted));
        Receipt bound = Receipt.newBuilder(counted).setCounted(false).build();
        assertFalse(AgentHistory.counts(bound), "a bound agent's receipt from another caller");
        assertFalse(AgentHistory.counts(
                Receipt.newBuilder(counted).setAgentId("test-seller").build()));
        assertFalse(
                AgentHistory.counts(Receipt.newBuilder(counted).setAgentId(null).build()));
    }

    @Test
    void receiptsInTheSameSecondShareOnePointHoldingTheLatestCounts() {
        Instant second = Instant.parse("2026-11-29T10:00:00.100Z");
        AgentHistory h = AgentHistory.empty("seller")
                .with(receipt(1, second, "pass"), 0, 10, HALF_LIFE)
                .with(receipt(2, second.plusMillis(300), "fail"), 0, 11, HALF_LIFE)
                .with(receipt(3, second.plusMillis(1000), "pass"), 0, 12, HALF_LIFE);
        assertEquals(2, h.timeline().size());
        assertEquals(
                new AgentHistory.ScorePoint(
                        h.timeline().get(0).at(), 1, 1, h.timeline().get(0).decayedScore()),
                h.timeline().get(0));
        assertEquals(2, h.timeline().get(1).passed());
        assertEquals(
                new AgentHistory.RecentReceipt("id-3", "pass", h.lastVerifiedAt(), 0, 12),
                h.recent().get(0));
    }

    @Test
    void aLongHistoryIsThinnedButKeepsItsFirstAndNewestPointsInOrder() {
        Instant start = Instant.parse("2026-11-29T10:00:00.000Z");
        AgentHistory h = AgentHistory.empty("seller");
        for (int i = 0; i < 1000; i++) {
            h = h.with(receipt(i, start.plusSeconds(i), i % 4 == 0 ? "fail" : "pass"), 1, i, HALF_LIFE);
        }
        List<AgentHistory.ScorePoint> points = h.timeline();
        assertTrue(
                points.size() <= AgentHistory.TIMELINE && points.size() >= AgentHistory.TIMELINE / 2,
                "size " + points.size());
        assertEquals(h.firstVerifiedAt(), points.get(0).at(), "the first receipt stays");
        assertEquals(
                List.of(0L, 1L), List.of(points.get(0).passed(), points.get(0).failed()));
        assertEquals(
                new AgentHistory.ScorePoint(
                        h.lastVerifiedAt(), 750, 250, h.decayed().score()),
                points.get(points.size() - 1));
        for (int i = 1; i < points.size(); i++) {
            assertTrue(points.get(i).at().compareTo(points.get(i - 1).at()) > 0, "times increase");
            assertTrue(points.get(i).passed() + points.get(i).failed()
                    > points.get(i - 1).passed() + points.get(i - 1).failed());
        }
        assertEquals(AgentHistory.RECENT, h.recent().size());
    }

    @Test
    void theStoreHoldsTheBinaryFormAndStillReadsHistoriesStoredAsJson() {
        AgentHistory h = AgentHistory.empty("seller")
                .with(receipt(1, Instant.parse("2026-11-29T10:00:00Z"), "pass"), 2, 7, HALF_LIFE)
                .with(receipt(2, Instant.parse("2026-11-29T10:00:05Z"), "fail"), 2, 9, HALF_LIFE);
        AgentHistorySerde serde = new AgentHistorySerde();
        byte[] stored = serde.serializer().serialize("agent-history-changelog", h);
        assertEquals(2, stored[0], "format byte");
        assertEquals(h, serde.deserializer().deserialize("agent-history-changelog", stored));
        byte[] earlier = AgentHistorySerde.toJson(h).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(h, serde.deserializer().deserialize("agent-history-changelog", earlier));
        assertEquals(
                AgentHistory.empty("x"),
                serde.deserializer().deserialize("t", serde.serializer().serialize("t", AgentHistory.empty("x"))));
        org.junit.jupiter.api.Assertions.assertThrows(
                org.apache.kafka.common.errors.SerializationException.class,
                () -> serde.deserializer().deserialize("t", java.util.Arrays.copyOf(stored, stored.length / 2)));
    }

    /** A history written is read back without decoding, but only for its own bytes: never a newer or older one. */
    @Test
    void aRememberedHistoryIsReturnedOnlyForTheBytesItWasWrittenAs() throws Exception {
        AgentHistorySerde serde = new AgentHistorySerde();
        AgentHistory first = AgentHistory.empty("seller")
                .with(receipt(1, Instant.parse("2026-11-29T10:00:00Z"), "pass"), 0, 1, HALF_LIFE);
        AgentHistory second = first.with(receipt(2, Instant.parse("2026-11-29T10:00:09Z"), "fail"), 0, 2, HALF_LIFE);
        byte[] firstBytes = serde.serializer().serialize("t", first);
        byte[] secondBytes = serde.serializer().serialize("t", second);
        assertTrue(second == serde.deserializer().deserialize("t", secondBytes), "the history written, not a copy");
        assertEquals(first, serde.deserializer().deserialize("t", firstBytes));
        secondBytes[secondBytes.length - 1] ^= 1; // the caller's array changed after it was written
        assertEquals(
                AgentHistorySerde.fromBytes(secondBytes), serde.deserializer().deserialize("t", secondBytes));
        // A thread that never wrote decodes (query threads keep nothing).
        AgentHistory[] read = new AgentHistory[1];
        Thread reader = new Thread(() -> read[0] = serde.deserializer().deserialize("t", firstBytes));
        reader.start();
        reader.join();
        assertEquals(first, read[0]);
        for (int i = 0; i < AgentHistorySerde.REMEMBERED + 10; i++) {
            serde.serializer().serialize("t", AgentHistory.empty("agent-" + i));
        }
        assertEquals(first, serde.deserializer().deserialize("t", firstBytes), "forgotten, then decoded");
    }

    /**
     * Each history written reuses the bytes of the items its agent's previous one shared; the result
     * must be exactly the documented format encoded from scratch, whatever the order of agents, the
     * timeline's thinning, histories decoded afresh in between, or characters beyond ASCII.
     */
    @Test
    void historiesWrittenOneAfterAnotherAreTheFormatEncodedFromScratch() throws Exception {
        AgentHistorySerde serde = new AgentHistorySerde();
        java.util.Random random = new java.util.Random(8785);
        String[] agents = {"seller", "buyer-\u00e9", "carrier"};
        java.util.Map<String, AgentHistory> histories = new java.util.HashMap<>();
        Instant at = Instant.parse("2026-11-29T10:00:00.000Z");
        for (int i = 0; i < 3_000; i++) {
            String agent = agents[random.nextInt(agents.length)];
            at = at.plusMillis(random.nextInt(3) == 0 ? 200 : 1_000 + random.nextInt(5_000));
            Receipt receipt = TestReceipts.receipt(
                    i,
                    agent,
                    random.nextBoolean() ? "pass" : "fail",
                    at.toString().replace("Z", "") + "+00:00");
            if (i % 97 == 0) {
                receipt.setVerificationId("id-\u20ac-" + i); // three bytes in modified UTF-8
            }
            AgentHistory before = histories.getOrDefault(agent, AgentHistory.empty(agent));
            if (i % 13 == 0) { // read back as the store would after a restart: new objects, equal values
                before = AgentHistorySerde.fromBytes(AgentHistorySerde.toBytes(before));
            }
            AgentHistory after = before.with(receipt, i % 3, i, HALF_LIFE);
            histories.put(agent, after);
            byte[] written = serde.serializer().serialize("t", after);
            org.junit.jupiter.api.Assertions.assertArrayEquals(fromScratch(after), written, "receipt " + i);
            assertEquals(after, AgentHistorySerde.fromBytes(written));
        }
        assertTrue(histories.get("seller").total() > 900, "long enough to thin the timeline several times");
    }

    /** The format as {@link java.io.DataOutputStream} writes it, field by field. */
    private static byte[] fromScratch(AgentHistory h) throws java.io.IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
            out.writeByte(2);
            out.writeUTF(h.agentId());
            out.writeLong(h.passed());
            out.writeLong(h.failed());
            for (String text : new String[] {h.firstVerifiedAt(), h.lastVerifiedAt(), h.lastResult()}) {
                out.writeBoolean(text != null);
                if (text != null) {
                    out.writeUTF(text);
                }
            }
            out.writeShort(h.recent().size());
            for (AgentHistory.RecentReceipt r : h.recent()) {
                out.writeUTF(r.verificationId());
                out.writeUTF(r.result());
                out.writeUTF(r.verifiedAt());
                out.writeInt(r.partition());
                out.writeLong(r.offset());
            }
            out.writeShort(h.timeline().size());
            for (AgentHistory.ScorePoint p : h.timeline()) {
                out.writeUTF(p.at());
                out.writeLong(p.passed());
                out.writeLong(p.failed());
                out.writeDouble(p.decayedScore());
            }
            out.writeLong(h.decayed().anchorMillis());
            out.writeDouble(h.decayed().passed());
            out.writeDouble(h.decayed().failed());
        }
        return bytes.toByteArray();
    }

    @Test
    void historiesStoredBeforeDecayedScoresReadWithoutThem() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
            out.writeByte(1);
            out.writeUTF("seller");
            out.writeLong(1);
            out.writeLong(0);
            for (String text :
                    new String[] {"2026-11-29T10:00:00.000000+00:00", "2026-11-29T10:00:00.000000+00:00", "pass"}) {
                out.writeBoolean(true);
                out.writeUTF(text);
            }
            out.writeShort(0);
            out.writeShort(1);
            out.writeUTF("2026-11-29T10:00:00.000000+00:00");
            out.writeLong(1);
            out.writeLong(0);
        }
        AgentHistory old = new AgentHistorySerde().deserializer().deserialize("t", bytes.toByteArray());
        assertEquals(1, old.passed());
        assertEquals(DecayedCounts.NONE, old.decayed(), "decayed counts start at the next receipt");
        assertTrue(Double.isNaN(old.timeline().get(0).decayedScore()));
        AgentHistory next = old.with(receipt(2, Instant.parse("2026-11-29T11:00:00Z"), "pass"), 0, 1, HALF_LIFE);
        assertEquals(1.0, next.decayed().passed(), 0);
    }

    @Test
    void theStoredFormRoundTripsAndOlderRecordsWithoutPositionsStillRead() {
        AgentHistory h = AgentHistory.empty("seller")
                .with(receipt(1, Instant.parse("2026-11-29T10:00:00Z"), "pass"), 2, 7, HALF_LIFE);
        assertEquals(h, AgentHistorySerde.fromJson(AgentHistorySerde.toJson(h)));
        var old = AgentHistorySerde.toJson(h);
        ((tools.jackson.databind.node.ObjectNode) old.get("recent").get(0)).remove(List.of("partition", "offset"));
        old.remove("timeline");
        AgentHistory read = AgentHistorySerde.fromJson(old);
        assertEquals(-1, read.recent().get(0).partition());
        assertEquals(List.of(), read.timeline());
    }

    /** A ranking row per agent lives in memory: a decoded history's result is not kept as a copy. */
    @Test
    void aRankingRowSharesTheResultConstantInsteadOfTheDecodedCopy() {
        AgentHistorySerde serde = new AgentHistorySerde();
        for (String result : List.of("pass", "fail")) {
            AgentHistory h = AgentHistory.empty("seller")
                    .with(receipt(1, Instant.parse("2026-11-29T10:00:00Z"), result), 0, 1, HALF_LIFE);
            AgentHistory decoded = serde.deserializer()
                    .deserialize("agent-history-changelog", serde.serializer().serialize("agent-history-changelog", h));
            AgentSummary row = AgentSummary.of(decoded);
            assertEquals(result, row.lastResult());
            assertTrue(
                    row.lastResult() == dev.proofline.contract.ReceiptFields.PASS
                            || row.lastResult() == dev.proofline.contract.ReceiptFields.FAIL,
                    "the shared constant");
        }
    }
}
