package dev.proofline.query.http;

import dev.proofline.attestor.StrictJson;
import dev.proofline.query.discovery.DiscoveryDocuments;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
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
    private final PipelineHealth pipeline;
    private final java.util.function.Supplier<String> llmsAppendix;

    public DiscoveryRoutes(
            DiscoveryDocuments documents,
            KafkaStreams streams,
            Admin admin,
            int maxRequestBytes,
            PipelineHealth pipeline,
            java.util.function.Supplier<String> llmsAppendix) {
        this.llmsAppendix = llmsAppendix;
        this.documents = documents;
        this.streams = streams;
        this.admin = admin;
        this.maxRequestBytes = maxRequestBytes;
        this.pipeline = pipeline;
    }

    @Override
    public void mount(JavalinConfig cfg) {
        // These documents depend only on this node's settings and keys, fixed at start: built once,
        // not per request (the agent-card alone reads, canonicalizes and hashes its test vectors).
        byte[] agentCard = utf8(documents.agentCard());
        byte[] openApi = utf8(documents.openApi());
        byte[] apiCatalog = utf8(documents.apiCatalog());
        byte[] index = utf8(documents.index());
        String routeList = documents.docsHtml();
        String llmsTxt = documents.llmsTxt(maxRequestBytes);
        cfg.routes.get("/.well-known/agent-card.json", ctx -> json(ctx, agentCard));
        cfg.routes.get("/.well-known/agent.json", ctx -> json(ctx, agentCard));
        cfg.routes.get(
                "/.well-known/api-catalog",
                ctx -> ctx.contentType("application/linkset+json").result(apiCatalog));
        cfg.routes.get("/openapi.json", ctx -> json(ctx, openApi));
        cfg.routes.get(
                "/llms.txt", ctx -> ctx.contentType("text/plain; charset=utf-8").result(llmsTxt + llmsAppendix.get()));
        cfg.routes.get(
                "/llms-full.txt",
                ctx -> ctx.contentType("text/plain; charset=utf-8")
                        .result(documents.llmsFullTxt(maxRequestBytes, llmsAppendix.get())));
        cfg.routes.get("/health", this::health);
        cfg.routes.get("/", ctx -> {
            ctx.header("Vary", "Accept"); // JSON or HTML by Accept: a cache must tell them apart
            String accept = ctx.header("Accept");
            if (accept != null && accept.contains("application/json")) {
                json(ctx, index);
            } else {
                ctx.contentType("text/html; charset=utf-8").result(routeList);
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
        java.util.List<String> problems = pipeline.problems();
        boolean healthy = brokerReachable && pipelineUp && problems.isEmpty();
        ObjectNode body = StrictJson.NODES.objectNode();
        body.put("status", healthy ? "ok" : "unhealthy");
        body.put("broker", brokerReachable ? "reachable" : "unreachable");
        body.put("streams", state.name());
        body.put("stream_threads_replaced", pipeline.threadsReplaced());
        if (!problems.isEmpty()) {
            var reasons = body.putArray("problems");
            problems.forEach(reasons::add);
        }
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
        json(ctx, healthy ? 200 : 503, body);
    }

    private static byte[] utf8(ObjectNode document) {
        return document.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void json(Context ctx, byte[] document) {
        ctx.contentType("application/json").result(document);
    }

    private static void json(Context ctx, int status, ObjectNode body) {
        ctx.status(status).contentType("application/json").result(body.toString());
    }
}
