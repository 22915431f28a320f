package dev.proofline.reputation.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.reputation.ReceiptPosition;
import org.junit.jupiter.api.Test;

class RecentReceiptsTest {

    @Test
    void keepsTheNewestWithinItsBytesAndDropsTheOldestFirst() {
        int entry = 1000 + RecentReceipts.OVERHEAD_BYTES;
        RecentReceipts recent = new RecentReceipts(10L * entry);
        for (int offset = 0; offset < 25; offset++) {
            recent.add(offset % 3, offset, new byte[1000]);
            assertTrue(recent.bytes() <= 10L * entry, "never over its bound");
        }
        assertEquals(10, recent.size());
        assertTrue(recent.find(new ReceiptPosition(14 % 3, 14)).isEmpty(), "an old one is gone");
        assertTrue(recent.find(new ReceiptPosition(24 % 3, 24)).isPresent(), "the newest is kept");
    }

    @Test
    void aPositionIsKeptOnceAndZeroBytesKeepsNothing() {
        RecentReceipts recent = new RecentReceipts(1 << 20);
        recent.add(0, 7, new byte[] {1});
        recent.add(0, 7, new byte[] {2}); // read again (a rebalance): a position's record never changes
        assertArrayEquals(new byte[] {1}, recent.find(new ReceiptPosition(0, 7)).orElseThrow());
        assertEquals(1 + RecentReceipts.OVERHEAD_BYTES, recent.bytes());

        RecentReceipts off = new RecentReceipts(0);
        off.add(0, 1, new byte[] {1});
        assertEquals(0, off.size());
    }

    @Test
    void theIdOfAReceiptJustAnsweredIsFoundUntilTheReceiptIsDropped() {
        int entry = 1000 + RecentReceipts.OVERHEAD_BYTES;
        RecentReceipts recent = new RecentReceipts(3L * entry);
        recent.add(1, 40, new byte[1000]);
        recent.answered("id-40", "agent-a", 1, 40);
        assertEquals(new ReceiptPosition(1, 40), recent.answeredAt("id-40").orElseThrow());

        recent.answered("id-never-read", "agent-a", 2, 99); // not kept here: nothing to point at
        assertTrue(recent.answeredAt("id-never-read").isEmpty());

        recent.add(1, 41, new byte[1000]);
        recent.answered("id-41", "test-agent", 1, 41); // a test- receipt is never found by id
        assertTrue(recent.answeredAt("id-41").isEmpty());

        for (long offset = 42; offset < 45; offset++) {
            recent.add(1, offset, new byte[1000]);
        }
        assertTrue(recent.find(new ReceiptPosition(1, 40)).isEmpty(), "the receipt was dropped");
        assertTrue(recent.answeredAt("id-40").isEmpty(), "and its id with it");

        RecentReceipts off = new RecentReceipts(0);
        off.add(0, 1, new byte[] {1});
        off.answered("id-1", "agent-a", 0, 1);
        assertTrue(off.answeredAt("id-1").isEmpty());
    }
}
