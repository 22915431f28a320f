package dev.proofline.client;

import dev.proofline.attestor.StrictJson;
import dev.proofline.attestor.TrustedKeys;
import dev.proofline.contract.Headers;
import dev.proofline.contract.RequestFields;
import dev.proofline.contract.Topics;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.CorrelatedReplies;
import dev.proofline.schemas.DeliveryDeadline;
import dev.proofline.schemas.RestSchemaRegistryClient;
import dev.proofline.schemas.avro.Receipt;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
 * try (ProoflineClient proofline = ProoflineClient.builder()
 *         .baseUrl("https://proofline.example.com")
 *         .kafka(Map.of("bootstrap.servers", "broker:9093", "security.protocol", "SASL_SSL", ...))
 *         .build()) {
 *     VerifiedReceipt receipt = proofline.verify(requestJson).get();
 *     if (receipt.passed()) { ... }
 * }
 * }</pre>
 *
 * Without {@code kafka(...)} requests go over HTTP ({@code POST /verify/schema}). Failures complete
 * the future exceptionally with a {@link ProoflineException} (the service refused or could not
 * answer) or an {@link InvalidReceiptException} (an answer whose signature does not verify, or a
 * genuine receipt whose hashes are not those of the request sent). Over Kafka, {@code build()}
 * itself throws {@link ProoflineException} {@code unreachable} when Kafka gives no partition of the
 * reply topics within the builder's {@code connectTimeout} (30 s): no broker there, or no such topics.
 */
public final class ProoflineClient implements AutoCloseable {
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(30);
    private final String baseUrl;
    private final String apiKey;
    private final ReceiptChecker checker;
    private final HttpClient http;
    private final Topics topics;
    private final KafkaProducer<String, byte[]> producer;
    private final CorrelatedReplies replies;
    private final AvroSerde<Receipt> receipts;
    private final Duration timeout;
    /**
     * Over Kafka, where each reply's receipt is decoded and checked: not the reply reader's own
     * thread, since a check may ask the schema registry or the agent-card over HTTP, and a slow one
     * would hold every other caller's reply behind it.
     */
    private final java.util.concurrent.ExecutorService checking;

    private ProoflineClient(Builder builder) {
        this.baseUrl = builder.baseUrl;
        this.timeout = builder.timeout;
        this.apiKey = builder.apiKey;
        this.checker = builder.pinnedKeys != null
                ? new ReceiptChecker(builder.pinnedKeys)
                : new ReceiptChecker(AgentCardKeys.of(baseUrl));
        this.http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        this.topics = builder.topics;
        if (builder.kafka == null) {
            this.producer = null;
            this.replies = null;
            this.receipts = null;
            this.checking = null;
            return;
        }
        this.checking = java.util.concurrent.Executors.newFixedThreadPool(4, task -> {
            Thread thread = new Thread(task, "proofline-client-receipt-check");
            thread.setDaemon(true);
            return thread;
        });
        // Checked before anything is opened: a bad registry URL leaves nothing to close.
        this.receipts = new AvroSerde<>(
                new RestSchemaRegistryClient(builder.registryUrl != null ? builder.registryUrl : baseUrl),
                Receipt.getClassSchema());
        Map<String, Object> producerConfig = new HashMap<>(builder.kafka);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // A request whose caller was told "timeout" or "unreachable" is not written later.
        DeliveryDeadline.within(producerConfig, builder.timeout);
        this.producer = new KafkaProducer<>(producerConfig, new StringSerializer(), new ByteArraySerializer());
        try {
            this.replies = new CorrelatedReplies(
                    CorrelatedReplies.consumer(builder.kafka, false),
                    topics,
                    true,
                    reply -> {},
                    "proofline-client-replies",
                    builder.connectTimeout);
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e instanceof org.apache.kafka.common.errors.TimeoutException timedOut ? unreachable(timedOut) : e;
        }
    }

    /** Kafka gave no partition of the reply topics within the client's timeout. */
    static ProoflineException unreachable(org.apache.kafka.common.errors.TimeoutException e) {
        ProoflineException failure = new ProoflineException("unreachable", 0, true, e.getMessage(), null);
        failure.initCause(e);
        return failure;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Over HTTP: {@code POST /verify/schema} on the deployment at {@code baseUrl}. */
    public static ProoflineClient overRest(String baseUrl) {
        return builder().baseUrl(baseUrl).build();
    }

    /**
     * Over Kafka on a plain, unsecured cluster with the default topic names; {@link #builder()}
     * takes security settings and renamed topics.
     */
    public static ProoflineClient overKafka(String bootstrapServers, String baseUrl) {
        return builder()
                .baseUrl(baseUrl)
                .kafka(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))
                .build();
    }

    /** Publishes a request ({@code docs/request.md}) and completes with its verified receipt. */
    public CompletableFuture<VerifiedReceipt> verify(String requestJson) {
        byte[] body = requestJson.getBytes(StandardCharsets.UTF_8);
        return producer == null ? verifyOverRest(body) : verifyOverKafka(body);
    }

    /** Where Kafka wrote a published request. */
    public record Published(String topic, int partition, long offset) {}

    /**
     * Over Kafka only: writes a request to the input topic and completes once Kafka has acknowledged
     * it, without waiting for its receipt (for producers that read receipts from the receipts topic,
     * or not at all). Fails with {@link ProoflineException} {@code unreachable} when Kafka refuses it,
     * or {@code timeout} when Kafka does not acknowledge it within the client's timeout (it may still
     * be written then).
     *
     * @throws IllegalStateException on a client without {@code kafka(...)}: over HTTP a request is
     *     answered with its receipt, so there is nothing to publish on its own
     */
    public CompletableFuture<Published> publish(String requestJson) {
        if (producer == null) {
            throw new IllegalStateException("publish needs a client over Kafka; over HTTP use verify");
        }
        byte[] body = requestJson.getBytes(StandardCharsets.UTF_8);
        CompletableFuture<Published> written = new CompletableFuture<>();
        producer.send(new ProducerRecord<>(topics.input(), agentId(body), body), (metadata, error) -> {
            if (error != null) {
                written.completeExceptionally(error);
            } else {
                written.complete(new Published(metadata.topic(), metadata.partition(), metadata.offset()));
            }
        });
        return unreachableAsProofline(written.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS));
    }

    /** Checks a receipt you were handed, offline but for fetching the agent-card's keys (none when pinned). */
    public VerifiedReceipt verifyOffline(String receiptJson) {
        return checker.check(receiptJson);
    }

    /**
     * The same, and the receipt must be about {@code requestJson}: every hash it carries is
     * recomputed from the request and compared, so a genuine receipt for other data is refused.
     */
    public VerifiedReceipt verifyOffline(String receiptJson, String requestJson) {
        return checker.check(receiptJson, requestJson.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The receipt of a request answered {@code receipt_pending} ({@link
     * ProoflineException#pendingVerificationId}), over REST ({@code GET /receipts/{id}}, with this
     * client's key), checked against {@code requestJson} as {@link #verify} checks its receipts.
     * Until it is committed this fails with {@code receipt_not_found}: ask again later.
     */
    public CompletableFuture<VerifiedReceipt> receipt(String verificationId, String requestJson) {
        if (!ProoflineException.VERIFICATION_ID.matcher(verificationId).matches()) {
            throw new IllegalArgumentException("verificationId is not a verification id (a UUID)");
        }
        return receiptOverRest(
                HttpRequest.newBuilder(URI.create(baseUrl + "/receipts/" + verificationId)),
                requestJson.getBytes(StandardCharsets.UTF_8));
    }

    private CompletableFuture<VerifiedReceipt> verifyOverRest(byte[] body) {
        return receiptOverRest(
                HttpRequest.newBuilder(URI.create(baseUrl + "/verify/schema"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)),
                body);
    }

    /** The receipt {@code call} answers with (this client's key sent, its timeout kept), checked against {@code request}. */
    private CompletableFuture<VerifiedReceipt> receiptOverRest(HttpRequest.Builder call, byte[] request) {
        call.timeout(timeout);
        if (apiKey != null) {
            call.header("Authorization", "Bearer " + apiKey); // never in the URL, where logs keep it
        }
        CompletableFuture<HttpResponse<String>> exchange = http.sendAsync(call.build(), BoundedBody.handler());
        // The request's own timeout stops at the headers; orTimeout bounds the body and the check too.
        CompletableFuture<VerifiedReceipt> answer = exchange.thenApply(response -> {
                    if (response.statusCode() != 200) {
                        throw refused(response.body(), response.statusCode());
                    }
                    return checker.check(response.body(), request);
                })
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
        answer.whenComplete((receipt, failed) -> {
            if (failed != null) {
                exchange.cancel(true); // a timed-out exchange stops reading, and frees its connection
            }
        });
        return unreachableAsProofline(answer);
    }

    /**
     * Every failure as the class promises: {@link ProoflineException} or {@link InvalidReceiptException}.
     * The network's own ({@code ConnectException}, a timeout) become {@code unreachable} or
     * {@code timeout}, both retryable; the original is the cause.
     */
    private static <T> CompletableFuture<T> unreachableAsProofline(CompletableFuture<T> answer) {
        CompletableFuture<T> promised = new CompletableFuture<>();
        answer.whenComplete((value, error) -> {
            if (error == null) {
                promised.complete(value);
                return;
            }
            Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                    ? error.getCause()
                    : error;
            if (cause instanceof ProoflineException || cause instanceof InvalidReceiptException) {
                promised.completeExceptionally(cause);
                return;
            }
            boolean timedOut = cause instanceof java.util.concurrent.TimeoutException
                    || cause instanceof java.net.http.HttpTimeoutException;
            ProoflineException failure = new ProoflineException(
                    timedOut ? "timeout" : "unreachable",
                    0,
                    true,
                    timedOut
                            ? "no answer within the client's timeout"
                            : "the service could not be reached ("
                                    + cause.getClass().getSimpleName() + ")",
                    null);
            failure.initCause(cause);
            promised.completeExceptionally(failure);
        });
        return promised;
    }

    private CompletableFuture<VerifiedReceipt> verifyOverKafka(byte[] body) {
        String correlationId = UUID.randomUUID().toString();
        CompletableFuture<CorrelatedReplies.Reply> reply = replies.expect(correlationId);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topics.input(), agentId(body), body);
        record.headers().add(Headers.CORRELATION_ID, correlationId.getBytes(StandardCharsets.UTF_8));
        producer.send(record, (metadata, error) -> {
            if (error != null) {
                replies.forget(correlationId);
                reply.completeExceptionally(error);
            }
        });
        // The timeout covers the check too: the caller hears within it, whatever the registry does.
        return unreachableAsProofline(reply.thenApplyAsync(answer -> verified(answer, body), checking)
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((r, e) -> replies.forget(correlationId)));
    }

    /** The record key: the request's agent id, so an agent's requests stay in order. */
    private static String agentId(byte[] body) {
        try {
            JsonNode agent = StrictJson.parse(body).path(RequestFields.AGENT_ID);
            return agent.isString() ? agent.stringValue() : null;
        } catch (RuntimeException e) {
            return null; // not JSON: the pipeline dead-letters it and the caller hears why
        }
    }

    private VerifiedReceipt verified(CorrelatedReplies.Reply reply, byte[] request) {
        if (!reply.isReceipt()) {
            throw refused(reply.text(), 0);
        }
        String signedJson;
        try {
            signedJson = receipts.deserialize(reply.value()).getSignedJson();
        } catch (RuntimeException e) {
            throw new InvalidReceiptException("not a receipt record: " + e.getMessage(), null);
        }
        return checker.check(signedJson, request);
    }

    private static ProoflineException refused(String document, int httpStatus) {
        try {
            JsonNode error = StrictJson.parse(document);
            return new ProoflineException(
                    error.path("code").asString("unknown"),
                    error.path("status").asInt(httpStatus),
                    error.path("retryable").asBoolean(false),
                    error.path("message").asString(""),
                    document);
        } catch (RuntimeException e) {
            return new ProoflineException(
                    "unknown", httpStatus, false, "an answer that is not an error document", document);
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
        if (checking != null) {
            checking.shutdownNow();
        }
    }

    /** What a deployment needs to be reached: its base URL, and for Kafka its client settings and topic names. */
    public static final class Builder {
        private String baseUrl;
        private Map<String, Object> kafka;
        private Topics topics = Topics.defaults();
        private String registryUrl;
        private String apiKey;
        private Duration timeout = DEFAULT_TIMEOUT;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private TrustedKeys pinnedKeys;

        private Builder() {}

        /**
         * Over Kafka: how long {@code build()} waits for Kafka to give the client its reply topics'
         * partitions before failing with {@code unreachable} (default 30 s; a new consumer group's
         * first assignment waits for the broker's initial rebalance delay, 3 s by default).
         */
        public Builder connectTimeout(Duration connectTimeout) {
            if (connectTimeout.isNegative() || connectTimeout.isZero()) {
                throw new IllegalArgumentException("the connect timeout must be positive");
            }
            this.connectTimeout = connectTimeout;
            return this;
        }

        /**
         * How long {@link ProoflineClient#verify} waits for a receipt before failing with
         * {@code timeout} (default 60 s, longer than the service's own wait for a receipt).
         */
        public Builder timeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("the timeout must be positive");
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * The caller key the operator issued ({@code proofline caller add}): REST verifications are
         * recorded as this key's, so it can read their receipts back and, for the agent ids it owns,
         * move their scores. Without one, a REST caller is its client address. Spaces and line breaks
         * around it are dropped (a token file ends with a newline); a key with any other character
         * that is not visible ASCII is refused, without being quoted.
         */
        public Builder apiKey(String token) {
            this.apiKey = CallerKeys.headerSafe(Objects.requireNonNull(token, "token"));
            return this;
        }

        /**
         * Checks every receipt against these keys alone and never reads keys from the agent-card:
         * for a caller that got the deployment's keys another way ({@code proofline key public}, a
         * key file it trusts), so that whoever controls the HTTP path cannot swap both a receipt and
         * the card it is checked with. A receipt signed with any other key is an {@link
         * InvalidReceiptException}; after a key rotation, pin the new key too.
         */
        public Builder trustedKeys(TrustedKeys keys) {
            this.pinnedKeys = Objects.requireNonNull(keys, "keys");
            return this;
        }

        /** The deployment's HTTP address: agent-card (keys), REST, and by default the schema registry. */
        public Builder baseUrl(String baseUrl) {
            this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl").replaceAll("/+$", "");
            return this;
        }

        /**
         * Sends requests over Kafka with these client properties: {@code bootstrap.servers} and any
         * security settings ({@code security.protocol}, {@code sasl.*}, {@code ssl.*}). The client
         * sets acks, idempotence and read_committed itself.
         */
        public Builder kafka(Map<String, ?> properties) {
            if (!properties.containsKey(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
                throw new IllegalArgumentException("Kafka client properties need bootstrap.servers");
            }
            this.kafka = Map.copyOf(properties);
            return this;
        }

        public Builder kafka(Properties properties) {
            Map<String, Object> map = new HashMap<>();
            properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name)));
            return kafka(map);
        }

        /** The deployment's topic names, when it renamed them ({@code topics.*} settings). */
        public Builder topics(Topics topics) {
            this.topics = Objects.requireNonNull(topics, "topics");
            return this;
        }

        /** A schema registry other than the deployment's own (e.g. a Confluent registry). */
        public Builder schemaRegistryUrl(String url) {
            this.registryUrl = url;
            return this;
        }

        public ProoflineClient build() {
            if (baseUrl == null) {
                throw new IllegalStateException(
                        "baseUrl is required: REST, the schema registry and (unless trustedKeys pins them) the"
                                + " agent-card's keys are there");
            }
            return new ProoflineClient(this);
        }
    }
}
