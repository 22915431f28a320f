package dev.proofline.client;

import dev.proofline.attestor.StrictJson;
import dev.proofline.schemas.Headers;
import dev.proofline.schemas.RestSchemaRegistryClient;
import dev.proofline.schemas.Topics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import tools.jackson.databind.JsonNode;

/**
 * Proofline's Java client. Publish a verification request and get its receipt, already checked
 * against the service's published keys:
 *
 * <pre>{@code
 * try (ProoflineClient proofline = ProoflineClient.overKafka("127.0.0.1:9092", "http://127.0.0.1:8080")) {
 *     VerifiedReceipt receipt = proofline.verify(requestJson).get();
 *     if (receipt.passed()) { ... }
 * }
 * }</pre>
 *
 * {@link #overRest} does the same over HTTP. Failures complete the future exceptionally with a
 * {@link ProoflineException} (the service refused or could not answer) or an
 * {@link InvalidReceiptException} (an answer whose signature does not verify).
 */
public final class ProoflineClient implements AutoCloseable {
    private final String baseUrl;
    private final AgentCardKeys keys;
    private final ReceiptChecker checker;
    private final HttpClient http;
    private final KafkaProducer<String, byte[]> producer;
    private final VerifiedReceiptStream replies;
    private final Map<String, CompletableFuture<VerifiedReceipt>> waiting = new ConcurrentHashMap<>();

    private ProoflineClient(String baseUrl, String bootstrapServers) {
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.keys = AgentCardKeys.of(this.baseUrl);
        this.checker = new ReceiptChecker(keys);
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        if (bootstrapServers == null) {
            this.producer = null;
            this.replies = null;
            return;
        }
        Map<String, Object> kafka = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                new StringSerializer(), new ByteArraySerializer());
        this.replies = new VerifiedReceiptStream(kafka, Topics.RECEIPTS, Topics.DEAD_LETTER,
                new RestSchemaRegistryClient(this.baseUrl), keys, false, new RepliesToCallers());
    }

    /** Over HTTP: {@code POST /verify/schema} on the deployment at {@code baseUrl}. */
    public static ProoflineClient overRest(String baseUrl) {
        return new ProoflineClient(baseUrl, null);
    }

    /**
     * Over Kafka: requests go to the input topic with a correlation id, receipts come back from the
     * receipts topic; {@code baseUrl} serves the agent-card (keys) and the schema registry.
     */
    public static ProoflineClient overKafka(String bootstrapServers, String baseUrl) {
        return new ProoflineClient(baseUrl, bootstrapServers);
    }

    /** Publishes a request (the JSON of SPEC section 1) and completes with its verified receipt. */
    public CompletableFuture<VerifiedReceipt> verify(String requestJson) {
        byte[] body = requestJson.getBytes(StandardCharsets.UTF_8);
        return producer == null ? verifyOverRest(body) : verifyOverKafka(body);
    }

    /** Checks a receipt you were handed, offline but for fetching the agent-card's keys. */
    public VerifiedReceipt verifyOffline(String receiptJson) {
        return checker.check(receiptJson);
    }

    private CompletableFuture<VerifiedReceipt> verifyOverRest(byte[] body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/verify/schema"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(response -> {
            if (response.statusCode() != 200) {
                throw refused(response.body(), response.statusCode());
            }
            return checker.check(response.body());
        });
    }

    private CompletableFuture<VerifiedReceipt> verifyOverKafka(byte[] body) {
        String correlationId = UUID.randomUUID().toString();
        CompletableFuture<VerifiedReceipt> reply = new CompletableFuture<>();
        waiting.put(correlationId, reply);
        String agentId = null;
        try {
            JsonNode agent = StrictJson.parse(body).path("agent_id");
            agentId = agent.isString() ? agent.stringValue() : null;
        } catch (RuntimeException e) {
            // not JSON: the pipeline dead-letters it and the caller hears why
        }
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.INPUT, agentId, body);
        record.headers().add(Headers.CORRELATION_ID, correlationId.getBytes(StandardCharsets.UTF_8));
        producer.send(record, (metadata, error) -> {
            if (error != null) {
                waiting.remove(correlationId);
                reply.completeExceptionally(error);
            }
        });
        return reply.whenComplete((r, e) -> waiting.remove(correlationId));
    }

    private final class RepliesToCallers implements VerifiedReceiptStream.Listener {
        @Override
        public void onReceipt(VerifiedReceipt receipt, String correlationId) {
            CompletableFuture<VerifiedReceipt> caller = correlationId == null ? null : waiting.get(correlationId);
            if (caller != null) {
                caller.complete(receipt);
            }
        }

        @Override
        public void onInvalid(InvalidReceiptException problem, String correlationId) {
            CompletableFuture<VerifiedReceipt> caller = correlationId == null ? null : waiting.get(correlationId);
            if (caller != null) {
                caller.completeExceptionally(problem);
            }
        }

        @Override
        public void onDeadLetter(String errorDocument, String correlationId) {
            CompletableFuture<VerifiedReceipt> caller = correlationId == null ? null : waiting.get(correlationId);
            if (caller != null) {
                caller.completeExceptionally(refused(errorDocument, 0));
            }
        }
    }

    private static ProoflineException refused(String document, int httpStatus) {
        try {
            JsonNode error = StrictJson.parse(document);
            return new ProoflineException(error.path("code").asString("unknown"), error.path("status").asInt(httpStatus),
                    error.path("retryable").asBoolean(false), error.path("message").asString(""), document);
        } catch (RuntimeException e) {
            return new ProoflineException("unknown", httpStatus, false, "an answer that is not an error document", document);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (replies != null) {
            replies.close();
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
