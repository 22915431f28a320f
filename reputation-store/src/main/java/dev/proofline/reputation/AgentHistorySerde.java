package dev.proofline.reputation;

import dev.proofline.attestor.StrictJson;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Two forms of an {@link AgentHistory}. In the state store and its changelog: a compact binary
 * record (a format byte, then the fields in order, as {@link java.io.DataOutput} writes them; see
 * {@link DataBytes}), because every counted receipt reads and
 * rewrites its agent's history, and as JSON that round trip cost about as much as signing the
 * receipt (55-70 µs for a full history, against 16-20 µs in this form, measured on one machine).
 * Between instances (the internal route): JSON.
 * Histories stored as JSON by earlier versions still read.
 */
public final class AgentHistorySerde implements Serde<AgentHistory> {
    private static final byte FORMAT_1 = 1;
    /** Adds each timeline point's decayed score and the decayed counts. */
    private static final byte FORMAT_2 = 2;

    /** Histories remembered per thread (about 5 KB of bytes and twice that in objects each, full). */
    static final int REMEMBERED = 256;

    /**
     * The histories this thread wrote last, by agent id. Each counted receipt reads its agent's
     * history back from the store soon after the previous receipt wrote it (and the store's cache
     * flush reads it once more): when the bytes are the ones written, the history is the one
     * written, and decoding it again is pure waste. Only writing remembers, so the threads that
     * only read (queries) keep nothing; equal bytes are the only test, so a stale entry can never
     * be returned.
     */
    private final ThreadLocal<Map<String, Written>> written =
            ThreadLocal.withInitial(() -> new LinkedHashMap<>(64, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Written> eldest) {
                    return size() > REMEMBERED;
                }
            });

    /**
     * A history as encoded: its bytes, and where each recent receipt and each timeline point starts
     * in them (one more entry than there are items: where the last one ends).
     */
    private record Written(byte[] bytes, AgentHistory history, int[] recentAt, int[] pointAt) {}

    /** No history written before: nothing to copy from. */
    private static final Written NOTHING = new Written(new byte[0], AgentHistory.empty(""), new int[1], new int[1]);

    @Override
    public Serializer<AgentHistory> serializer() {
        return (topic, history) -> {
            if (history == null) {
                return null;
            }
            Map<String, Written> memo = written.get();
            Written encoded = encode(history, memo.getOrDefault(history.agentId(), NOTHING));
            memo.put(history.agentId(), encoded);
            return encoded.bytes().clone(); // the memo's copy must not change with what the caller does
        };
    }

    @Override
    public Deserializer<AgentHistory> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            if (bytes.length > 0 && bytes[0] == '{') {
                return fromJson(StrictJson.parse(bytes));
            }
            Written last = written.get().get(agentIdOf(bytes));
            return last != null && Arrays.equals(last.bytes(), bytes) ? last.history() : fromBytes(bytes);
        };
    }

    /** The agent id a binary history starts with, after its format byte. */
    private static String agentIdOf(byte[] bytes) {
        DataBytes.Reader in = new DataBytes.Reader(bytes);
        in.readByte();
        return in.readUTF();
    }

    static byte[] toBytes(AgentHistory h) {
        return encode(h, NOTHING).bytes();
    }

    /**
     * Encodes a history, copying the bytes of each recent receipt and timeline point that
     * {@code before} (the same agent's last history this thread wrote, or {@link #NOTHING}) already
     * encoded. A counted receipt's new history shares all but one recent receipt and one or two points with
     * the one before ({@link AgentHistory#with} keeps the very objects), and encoding those strings
     * again was most of the cost of writing a history. An item's bytes depend only on the item, and
     * the items are immutable, so the same object gives the same bytes: the result is byte for byte
     * what encoding everything gives.
     */
    private static Written encode(AgentHistory h, Written before) {
        List<AgentHistory.RecentReceipt> recent = h.recent();
        List<AgentHistory.ScorePoint> timeline = h.timeline();
        DataBytes.Writer out = new DataBytes.Writer(256 + 96 * recent.size() + 64 * timeline.size());
        out.writeByte(FORMAT_2);
        out.writeUTF(h.agentId());
        out.writeLong(h.passed());
        out.writeLong(h.failed());
        writeNullable(out, h.firstVerifiedAt());
        writeNullable(out, h.lastVerifiedAt());
        writeNullable(out, h.lastResult());
        out.writeShort(recent.size());
        int[] recentAt = writeItems(
                out, recent, before.history().recent(), before.recentAt(), before.bytes(), AgentHistorySerde::write);
        out.writeShort(timeline.size());
        int[] pointAt = writeItems(
                out, timeline, before.history().timeline(), before.pointAt(), before.bytes(), AgentHistorySerde::write);
        out.writeLong(h.decayed().anchorMillis());
        out.writeDouble(h.decayed().passed());
        out.writeDouble(h.decayed().failed());
        return new Written(out.toByteArray(), h, recentAt, pointAt);
    }

    private static void write(DataBytes.Writer out, AgentHistory.RecentReceipt r) {
        out.writeUTF(r.verificationId());
        out.writeUTF(r.result());
        out.writeUTF(r.verifiedAt());
        out.writeInt(r.partition());
        out.writeLong(r.offset());
    }

    private static void write(DataBytes.Writer out, AgentHistory.ScorePoint p) {
        out.writeUTF(p.at());
        out.writeLong(p.passed());
        out.writeLong(p.failed());
        out.writeDouble(p.decayedScore());
    }

    /**
     * Writes {@code items}, copying the bytes of each that {@code before} holds (the very object)
     * from where {@code beforeAt} says it was written in {@code beforeBytes}; returns where each item
     * starts, and where the last one ends.
     */
    private static <T> int[] writeItems(
            DataBytes.Writer out,
            List<T> items,
            List<T> before,
            int[] beforeAt,
            byte[] beforeBytes,
            BiConsumer<DataBytes.Writer, T> encode) {
        int[] at = new int[items.size() + 1];
        int next = 0; // where in the previous history the next item most likely is
        for (int i = 0; i < items.size(); i++) {
            at[i] = out.size();
            int was = sameItem(before, items.get(i), next);
            if (was >= 0) {
                out.writeEncoded(beforeBytes, beforeAt[was], beforeAt[was + 1]);
                next = was + 1;
            } else {
                encode.accept(out, items.get(i));
            }
        }
        at[items.size()] = out.size();
        return at;
    }

    /**
     * Where {@code item} itself (not an equal copy) is in {@code before}, looking only where it
     * would be after one receipt: at {@code next}, or one further on when the timeline was thinned;
     * -1 if not there.
     */
    private static int sameItem(List<?> before, Object item, int next) {
        for (int at = next; at < Math.min(next + 2, before.size()); at++) {
            if (before.get(at) == item) {
                return at;
            }
        }
        return -1;
    }

    static AgentHistory fromBytes(byte[] bytes) {
        DataBytes.Reader in = new DataBytes.Reader(bytes);
        byte format = in.readByte();
        if (format != FORMAT_1 && format != FORMAT_2) {
            throw new SerializationException("unknown agent-history format " + format);
        }
        String agentId = in.readUTF();
        long passed = in.readLong();
        long failed = in.readLong();
        String first = readNullable(in);
        String last = readNullable(in);
        String lastResult = readNullable(in);
        int recentCount = in.readShort();
        List<AgentHistory.RecentReceipt> recent = new ArrayList<>(Math.max(0, recentCount));
        for (int i = recentCount; i > 0; i--) {
            recent.add(new AgentHistory.RecentReceipt(
                    in.readUTF(), in.readUTF(), in.readUTF(), in.readInt(), in.readLong()));
        }
        int points = in.readShort();
        List<AgentHistory.ScorePoint> timeline = new ArrayList<>(Math.max(0, points));
        for (int i = points; i > 0; i--) {
            timeline.add(new AgentHistory.ScorePoint(
                    in.readUTF(), in.readLong(), in.readLong(), format == FORMAT_2 ? in.readDouble() : Double.NaN));
        }
        // A history written before decayed scores existed starts its decayed counts at its next receipt.
        DecayedCounts decayed = format == FORMAT_2
                ? new DecayedCounts(in.readLong(), in.readDouble(), in.readDouble())
                : DecayedCounts.NONE;
        return new AgentHistory(agentId, passed, failed, first, last, lastResult, recent, timeline, decayed);
    }

    private static void writeNullable(DataBytes.Writer out, String value) {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeUTF(value);
        }
    }

    private static String readNullable(DataBytes.Reader in) {
        return in.readBoolean() ? in.readUTF() : null;
    }

    public static ObjectNode toJson(AgentHistory h) {
        ObjectNode node = StrictJson.NODES.objectNode();
        node.put("agent_id", h.agentId());
        node.put("passed", h.passed());
        node.put("failed", h.failed());
        node.put("first_verified_at", h.firstVerifiedAt());
        node.put("last_verified_at", h.lastVerifiedAt());
        node.put("last_result", h.lastResult());
        ArrayNode recent = node.putArray("recent");
        for (AgentHistory.RecentReceipt r : h.recent()) {
            recent.addObject()
                    .put("verification_id", r.verificationId())
                    .put("result", r.result())
                    .put("verified_at", r.verifiedAt())
                    .put("partition", r.partition())
                    .put("offset", r.offset());
        }
        ArrayNode timeline = node.putArray("timeline");
        for (AgentHistory.ScorePoint p : h.timeline()) {
            timeline.addObject()
                    .put("at", p.at())
                    .put("passed", p.passed())
                    .put("failed", p.failed())
                    .put("decayed_score", Double.isNaN(p.decayedScore()) ? null : p.decayedScore());
        }
        node.putObject("decayed")
                .put("anchor_ms", h.decayed().anchorMillis())
                .put("passed", h.decayed().passed())
                .put("failed", h.decayed().failed());
        return node;
    }

    public static AgentHistory fromJson(JsonNode node) {
        List<AgentHistory.RecentReceipt> recent = new ArrayList<>();
        node.get("recent")
                .forEach(r -> recent.add(new AgentHistory.RecentReceipt(
                        r.get("verification_id").asString(),
                        r.get("result").asString(),
                        r.get("verified_at").asString(),
                        r.path("partition").asInt(-1),
                        r.path("offset").asLong(-1))));
        // Histories stored before positions and timelines existed read as having neither.
        List<AgentHistory.ScorePoint> timeline = new ArrayList<>();
        node.path("timeline")
                .forEach(p -> timeline.add(new AgentHistory.ScorePoint(
                        p.get("at").asString(),
                        p.get("passed").asLong(),
                        p.get("failed").asLong(),
                        p.path("decayed_score").isNumber()
                                ? p.get("decayed_score").asDouble()
                                : Double.NaN)));
        JsonNode decayed = node.path("decayed");
        return new AgentHistory(
                node.get("agent_id").asString(),
                node.get("passed").asLong(),
                node.get("failed").asLong(),
                text(node, "first_verified_at"),
                text(node, "last_verified_at"),
                text(node, "last_result"),
                recent,
                timeline,
                decayed.isObject()
                        ? new DecayedCounts(
                                decayed.get("anchor_ms").asLong(),
                                decayed.get("passed").asDouble(),
                                decayed.get("failed").asDouble())
                        : DecayedCounts.NONE);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }
}
