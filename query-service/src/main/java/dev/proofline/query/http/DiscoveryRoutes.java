package dev.proofline.query.http;

import dev.proofline.attestor.StrictJson;
import dev.proofline.query.discovery.DiscoveryDocuments;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import tools.jackson.databind.node.ObjectNode;

/** The discovery routes ({@code docs/http.md}) and {@code /health}. */
public final class DiscoveryRoutes implements RouteGroup {
    private final DiscoveryDocuments documents;
    private final KafkaStreams streams;
    private final Admin admin;
    private final int maxRequestBytes;

    public DiscoveryRoutes(DiscoveryDocuments documents, KafkaStreams streams, Admin admin, int maxRequestBytes) {
        this.documents = documents;
        this.streams = streams;
        this.admin = admin;
        this.maxRequestBytes = maxRequestBytes;
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.routes.get("/.well-known/agent-card.json", ctx -> json(ctx, 200, documents.agentCard()));
        cfg.routes.get("/.well-known/agent.json", ctx -> json(ctx, 200, documents.agentCard()));
        cfg.routes.get(
                "/.well-known/api-catalog",
                ctx -> ctx.contentType("application/linkset+json")
                        .result(documents.apiCatalog().toString()));
        cfg.routes.get("/openapi.json", ctx -> json(ctx, 200, documents.openApi()));
        cfg.routes.get(
                "/docs", ctx -> ctx.contentType("text/html; charset=utf-8").result(documents.docsHtml()));
        cfg.routes.get(
                "/llms.txt",
                ctx -> ctx.contentType("text/plain; charset=utf-8").result(documents.llmsTxt(maxRequestBytes)));
        cfg.routes.get("/health", this::health);
        cfg.routes.get("/", ctx -> {
            String accept = ctx.header("Accept");
            if (accept != null && accept.contains("application/json")) {
                json(ctx, 200, documents.index());
            } else {
                ctx.contentType("text/html; charset=utf-8").result(documents.docsHtml());
            }
        });
    }

    private void health(Context ctx) {
        boolean brokerReachable;
        try {
            admin.describeCluster().clusterId().get(2, TimeUnit.SECONDS);
            brokerReachable = true;
        } catch (Exception e) {
            brokerReachable = false;
        }
        KafkaStreams.State state = streams.state();
        boolean pipelineUp = state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING;
        ObjectNode body = StrictJson.NODES.objectNode();
        body.put("status", brokerReachable && pipelineUp ? "ok" : "unhealthy");
        body.put("broker", brokerReachable ? "reachable" : "unreachable");
        body.put("streams", state.name());
        // Which partitions this instance processes now: how an operator sees the work shared out.
        ObjectNode assigned = body.putObject("assigned_partitions");
        Map<String, java.util.TreeSet<Integer>> byTopic = new TreeMap<>();
        streams.metadataForLocalThreads()
                .forEach(thread -> thread.activeTasks()
                        .forEach(task -> task.topicPartitions()
                                .forEach(tp -> byTopic.computeIfAbsent(tp.topic(), t -> new java.util.TreeSet<>())
                                        .add(tp.partition()))));
        byTopic.forEach((topic, partitions) -> {
            var list = assigned.putArray(topic);
            partitions.forEach(list::add);
        });
        json(ctx, brokerReachable && pipelineUp ? 200 : 503, body);
    }

    private static void json(Context ctx, int status, ObjectNode body) {
        ctx.status(status).contentType("application/json").result(body.toString());
    }
}
