package dev.proofline.reputation;

import dev.proofline.attestor.StrictJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The state-store form of an {@link AgentHistory}: JSON, readable in the changelog topic. */
public final class AgentHistorySerde implements Serde<AgentHistory> {
    @Override
    public Serializer<AgentHistory> serializer() {
        return (topic, history) -> history == null ? null : toJson(history).toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Deserializer<AgentHistory> deserializer() {
        return (topic, bytes) -> bytes == null ? null : fromJson(StrictJson.parse(bytes));
    }

    static ObjectNode toJson(AgentHistory h) {
        ObjectNode node = StrictJson.NODES.objectNode();
        node.put("agent_id", h.agentId());
        node.put("passed", h.passed());
        node.put("failed", h.failed());
        node.put("first_verified_at", h.firstVerifiedAt());
        node.put("last_verified_at", h.lastVerifiedAt());
        node.put("last_result", h.lastResult());
        ArrayNode recent = node.putArray("recent");
        for (AgentHistory.RecentReceipt r : h.recent()) {
            recent.addObject().put("verification_id", r.verificationId()).put("result", r.result())
                    .put("verified_at", r.verifiedAt()).put("partition", r.partition()).put("offset", r.offset());
        }
        ArrayNode timeline = node.putArray("timeline");
        for (AgentHistory.ScorePoint p : h.timeline()) {
            timeline.addObject().put("at", p.at()).put("passed", p.passed()).put("failed", p.failed());
        }
        return node;
    }

    static AgentHistory fromJson(JsonNode node) {
        List<AgentHistory.RecentReceipt> recent = new ArrayList<>();
        node.get("recent").forEach(r -> recent.add(new AgentHistory.RecentReceipt(
                r.get("verification_id").asString(), r.get("result").asString(), r.get("verified_at").asString(),
                r.path("partition").asInt(-1), r.path("offset").asLong(-1))));
        // Histories stored before positions and timelines existed read as having neither.
        List<AgentHistory.ScorePoint> timeline = new ArrayList<>();
        node.path("timeline").forEach(p -> timeline.add(new AgentHistory.ScorePoint(
                p.get("at").asString(), p.get("passed").asLong(), p.get("failed").asLong())));
        return new AgentHistory(node.get("agent_id").asString(), node.get("passed").asLong(), node.get("failed").asLong(),
                text(node, "first_verified_at"), text(node, "last_verified_at"), text(node, "last_result"), recent, timeline);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }
}
