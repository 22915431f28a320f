package dev.proofline.reputation;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * The layout of the {@code agent-ranks} store: each task's agents in leaderboard order, so the best
 * {@code k} are the first {@code k} keys of a range scan and the leaderboard costs the same with
 * fifty agents or a million. Three kinds of entry, told apart by their first byte:
 * <ul>
 *   <li>{@code 0x00 agent-id} → the agent's current rank key (to remove it when the score moves);</li>
 *   <li>{@code 0x01 rank-key} → the agent's leaderboard row ({@link #row}); the rank key sorts as
 *       {@link AgentSummary#BEST_FIRST}:
 *       trust score descending, total descending, agent id in UTF-16 order;</li>
 *   <li>{@code 0x02} → how many agents the task holds (8 bytes).</li>
 * </ul>
 * Stores compare keys as unsigned bytes; every part is encoded so that byte order is that order.
 */
public final class AgentRanks {
    public static final String STORE = "agent-ranks";
    public static final Bytes FIRST_RANK = Bytes.wrap(new byte[] {1});
    /** Just past every rank entry: the count entry. */
    public static final Bytes COUNT = Bytes.wrap(new byte[] {2});

    private AgentRanks() {}

    public static Bytes agentKey(String agentId) {
        byte[] id = agentId.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(
                ByteBuffer.allocate(1 + id.length).put((byte) 0).put(id).array());
    }

    public static Bytes rankKey(String agentId, long passed, long failed) {
        double score = TrustScore.of(passed, failed); // in [0, 1]: its bits grow with it
        long total = passed + failed;
        // UTF-16BE code units compare as unsigned bytes in the same order as String.compareTo.
        byte[] id = agentId.getBytes(StandardCharsets.UTF_16BE);
        return Bytes.wrap(ByteBuffer.allocate(1 + 8 + 8 + id.length)
                .put((byte) 1)
                .putLong(Long.MAX_VALUE - Double.doubleToLongBits(score))
                .putLong(Long.MAX_VALUE - total)
                .put(id)
                .array());
    }

    /** A leaderboard row as the rank entry's value: counts, then id, last time and result, each length-prefixed. */
    public static byte[] row(AgentSummary row) {
        byte[][] texts = {utf8(row.agentId()), utf8(row.lastVerifiedAt()), utf8(row.lastResult())};
        int length = 16 + 12;
        for (byte[] text : texts) {
            length += text == null ? 0 : text.length;
        }
        ByteBuffer out = ByteBuffer.allocate(length);
        out.putLong(row.passed()).putLong(row.failed());
        for (byte[] text : texts) {
            out.putInt(text == null ? -1 : text.length);
            if (text != null) {
                out.put(text);
            }
        }
        return out.array();
    }

    public static AgentSummary row(byte[] value) {
        ByteBuffer in = ByteBuffer.wrap(value);
        long passed = in.getLong();
        long failed = in.getLong();
        String agentId = text(in);
        return new AgentSummary(agentId, passed, failed, text(in), text(in));
    }

    private static byte[] utf8(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    public static byte[] count(long agents) {
        return ByteBuffer.allocate(8).putLong(agents).array();
    }

    public static long count(byte[] value) {
        return value == null ? 0 : ByteBuffer.wrap(value).getLong();
    }
}
