package dev.proofline.reputation;

import dev.proofline.attestor.StrictJson;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    private record Written(byte[] bytes, AgentHistory history) {}

    @Override
    public Serializer<AgentHistory> serializer() {
        return (topic, history) -> {
            if (history == null) {
                return null;
            }
            byte[] bytes = toBytes(history);
            written.get().put(history.agentId(), new Written(bytes.clone(), history));
            return bytes;
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
        DataBytes.Writer out = new DataBytes.Writer(
                256 + 96 * h.recent().size() + 64 * h.timeline().size());
        out.writeByte(FORMAT_2);
        out.writeUTF(h.agentId());
        out.writeLong(h.passed());
        out.writeLong(h.failed());
        writeNullable(out, h.firstVerifiedAt());
        writeNullable(out, h.lastVerifiedAt());
        writeNullable(out, h.lastResult());
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
        return out.toByteArray();
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
