package dev.proofline.tlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WriteBackStoreTest {
    /** A map store that counts what reaches it. */
    private static final class CountingStore implements LogAppender.Store {
        final Map<String, byte[]> map = new HashMap<>();
        final List<String> writes = new ArrayList<>();

        @Override
        public byte[] get(String key) {
            return map.get(key);
        }

        @Override
        public void put(String key, byte[] value) {
            writes.add("put " + key);
            map.put(key, value);
        }

        @Override
        public void delete(String key) {
            writes.add("delete " + key);
            map.remove(key);
        }
    }

    @Test
    void aBatchOfAppendsLeavesTheSameStateWithOneWritePerKeyChanged() {
        CountingStore direct = new CountingStore();
        CountingStore beneath = new CountingStore();
        WriteBackStore buffered = new WriteBackStore(beneath);
        LogAppender plain = new LogAppender(direct);
        LogAppender batched = new LogAppender(buffered);
        Map<String, byte[]> published = new HashMap<>();
        for (int batch = 0; batch < 7; batch++) {
            int writesBefore = beneath.writes.size();
            for (int i = 0; i < 300; i++) { // crosses a tile and a bundle edge in most batches
                long n = batch * 300L + i;
                assertEquals(plain.append(MerkleLogTest.entry(n)), batched.append(MerkleLogTest.entry(n)));
            }
            assertArrayEquals(plain.root(), batched.root(), "reads see what is not flushed yet");
            Map<String, byte[]> tiles = batched.tilesToPublish();
            published.putAll(tiles);
            batched.published(tiles);
            plain.published(plain.tilesToPublish());
            buffered.flush();
            assertEquals(0, buffered.pending());
            int writes = beneath.writes.size() - writesBefore;
            assertTrue(writes <= 12, "a batch of 300 entries wrote " + writes + " times, not 3 per entry");
            assertEquals(direct.map.keySet(), beneath.map.keySet(), "batch " + batch);
            direct.map.forEach((key, value) -> assertArrayEquals(value, beneath.map.get(key), key));
        }
        assertTrue(beneath.writes.stream().anyMatch(w -> w.startsWith("delete ")), "full tiles left the store");
        assertArrayEquals(plain.root(), new LogAppender(beneath).root(), "a new appender reads the flushed state");
    }

    @Test
    void readsSeeUnflushedPutsAndDeletesAndNothingReachesTheStoreBeforeFlush() {
        CountingStore beneath = new CountingStore();
        beneath.map.put("kept", new byte[] {1});
        beneath.map.put("gone", new byte[] {2});
        WriteBackStore buffered = new WriteBackStore(beneath);
        buffered.put("new", new byte[] {3});
        buffered.put("new", new byte[] {4});
        buffered.delete("gone");
        buffered.put("empty", new byte[0]);
        buffered.put("nulled", null);
        assertArrayEquals(new byte[] {4}, buffered.get("new"));
        assertNull(buffered.get("gone"));
        assertArrayEquals(new byte[0], buffered.get("empty"), "an empty value is a value, not a deletion");
        assertNull(buffered.get("nulled"));
        assertArrayEquals(new byte[] {1}, buffered.get("kept"));
        assertTrue(beneath.writes.isEmpty());
        buffered.flush();
        assertEquals(List.of("put new", "delete gone", "put empty", "delete nulled"), beneath.writes);
        assertArrayEquals(new byte[] {4}, beneath.map.get("new"));
        assertArrayEquals(new byte[0], beneath.map.get("empty"));
        assertNull(beneath.map.get("gone"));
    }
}
