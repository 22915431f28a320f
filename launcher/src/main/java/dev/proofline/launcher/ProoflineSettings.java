package dev.proofline.launcher;

import dev.proofline.contract.Topics;
import dev.proofline.query.payment.PaymentTerms;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole configuration of one node, read once at start and typed: what {@link ProoflineNode}
 * wires its parts from. Derived defaults (the keys under the data dir, one replica on the embedded
 * broker) are decided here, nowhere else.
 *
 * @param bootstrapServers   an external cluster, or empty to start the embedded broker
 * @param replicationFactor  set, or 1 on the embedded broker; empty: decided by {@link Replication}
 * @param minInsyncReplicas  set; empty: decided by {@link Replication}
 * @param publicUrl          empty: this node's own HTTP address
 * @param receiptCacheBytes  memory for the newest receipts, read back without the broker
 * @param budgetSteps        the most evaluation steps one request may take
 * @param formatAssertion    whether JSON Schema's format keyword fails values (true) or only annotates
 * @param eagerCommitAge     a request verified this soon after it was written commits at once; zero: never
 * @param eagerCommitGap     the least time between two such commits of one stream thread
 * @param scoreHalfLife      how long until a receipt weighs half in the decayed score
 * @param retention          how long each topic Proofline creates keeps its records
 * @param connections        caps on live-feed and MCP connections
 * @param access             caller keys' topic, trusted proxies, CORS origins
 * @param allowancePerDay    free verifications per caller per UTC day
 * @param payment            x402 terms; off without a facilitator
 * @param clientOverrides    {@code client.*} settings, for every Kafka client
 * @param streamsOverrides   {@code streams.*} settings, for Kafka Streams only
 */
public record ProoflineSettings(
        Path dataDir,
        Path keysDir,
        String host,
        String kafkaHost,
        int kafkaPort,
        int httpPort,
        Optional<String> bootstrapServers,
        Optional<String> schemaRegistryUrl,
        Optional<String> publicUrl,
        String applicationId,
        Topics topics,
        int partitions,
        Optional<Short> replicationFactor,
        Optional<Integer> minInsyncReplicas,
        int maxRequestBytes,
        Duration verifyTimeout,
        long maxWaitingBytes,
        Duration receiptIndexRetention,
        long receiptCacheBytes,
        long budgetSteps,
        boolean formatAssertion,
        Duration eagerCommitAge,
        Duration eagerCommitGap,
        Duration scoreHalfLife,
        TopicRetention retention,
        ConnectionLimits connections,
        AccessSettings access,
        long allowancePerDay,
        PaymentTerms payment,
        TransparencyLogSettings transparencyLog,
        Map<String, Object> clientOverrides,
        Map<String, Object> streamsOverrides) {

    public ProoflineSettings {
        clientOverrides = Map.copyOf(clientOverrides);
        streamsOverrides = Map.copyOf(streamsOverrides);
    }

    public static ProoflineSettings resolve(ProoflineConfig config, Path defaultDataDir) {
        Path dataDir = Settings.DATA_DIR.valueIn(config).orElse(defaultDataDir);
        Optional<String> external = Settings.BOOTSTRAP_SERVERS.valueIn(config);
        return new ProoflineSettings(
                dataDir,
                Settings.KEYS_DIR.valueIn(config).orElse(dataDir.resolve("keys")),
                Settings.HOST.in(config),
                Settings.KAFKA_HOST.in(config),
                Settings.KAFKA_PORT.in(config),
                Settings.HTTP_PORT.in(config),
                external,
                Settings.SCHEMA_REGISTRY_URL.valueIn(config),
                Settings.PUBLIC_URL.valueIn(config),
                Settings.APPLICATION_ID.in(config),
                new Topics(
                        Settings.TOPICS_INPUT.in(config),
                        Settings.TOPICS_RECEIPTS.in(config),
                        Settings.TOPICS_DEAD_LETTER.in(config),
                        Settings.TOPICS_SCORES.in(config)),
                Settings.TOPICS_PARTITIONS.in(config),
                // One broker can hold one replica; on a cluster, Replication decides once it answers.
                Settings.TOPICS_REPLICATION_FACTOR
                        .valueIn(config)
                        .or(() -> external.isEmpty() ? Optional.of((short) 1) : Optional.empty()),
                Settings.TOPICS_MIN_INSYNC_REPLICAS.valueIn(config),
                Settings.MAX_REQUEST_BYTES.in(config),
                Settings.VERIFY_TIMEOUT.in(config),
                Settings.VERIFY_MAX_WAITING_MB.in(config) * 1024L * 1024L,
                Settings.RECEIPT_INDEX_RETENTION.in(config),
                Settings.RECEIPTS_CACHE_MB.in(config) * 1024L * 1024L,
                Settings.VERIFY_BUDGET_STEPS.in(config),
                Settings.VERIFY_FORMAT_ASSERTION.in(config),
                Duration.ofMillis(Settings.VERIFY_EAGER_COMMIT_MS.in(config)),
                Duration.ofMillis(Settings.VERIFY_EAGER_COMMIT_GAP_MS.in(config)),
                Duration.ofDays(Settings.SCORES_HALF_LIFE_DAYS.in(config)),
                new TopicRetention(
                        Settings.INPUT_RETENTION_MS.in(config),
                        Settings.RECEIPTS_RETENTION_MS.in(config),
                        Settings.DEAD_LETTER_RETENTION_MS.in(config)),
                new ConnectionLimits(
                        Settings.HTTP_MAX_CONNECTIONS.in(config),
                        Settings.HTTP_MAX_CONNECTIONS_PER_ADDRESS.in(config),
                        Settings.HTTP_MAX_THREADS.in(config),
                        Settings.HTTP_HEAD_TIMEOUT.in(config),
                        Settings.HTTP_BODY_TIMEOUT.in(config),
                        Settings.FEED_MAX_CLIENTS.in(config),
                        Settings.FEED_MAX_CONNECTED.in(config),
                        Settings.MCP_MAX_CONNECTIONS.in(config),
                        Settings.MCP_MAX_SESSIONS.in(config)),
                new AccessSettings(
                        Settings.TOPICS_CALLERS.valueIn(config).orElse(Settings.APPLICATION_ID.in(config) + "-callers"),
                        Settings.TRUSTED_PROXIES.in(config),
                        Settings.CORS_ORIGINS.in(config)),
                Settings.ALLOWANCE_PER_DAY.in(config),
                paymentTerms(config),
                new TransparencyLogSettings(
                        Settings.TLOG_ENABLED.in(config),
                        Settings.APPLICATION_ID.in(config) + "-tlog",
                        Settings.TLOG_ORIGIN.valueIn(config),
                        Duration.ofMillis(Settings.TLOG_CHECKPOINT_INTERVAL_MS.in(config))),
                config.withPrefix(ProoflineConfig.CLIENT_PREFIX),
                config.withPrefix(ProoflineConfig.STREAMS_PREFIX));
    }

    /**
     * The transparency log: whether it runs, its compacted topic, its origin (empty: the log's URL prefix without
     * its scheme, as C2SP tlog-tiles recommends) and the longest time between checkpoints.
     */
    public record TransparencyLogSettings(
            boolean enabled, String topic, Optional<String> origin, Duration checkpointInterval) {
        /** A checkpoint is also signed every this many entries. */
        public static final int CHECKPOINT_EVERY = 1024;

        /**
         * The configured origin, or the log's URL prefix without scheme, port or trailing slash:
         * public URL {@code https://verify.example.com/} serves the log under {@code /tlog/}, so its
         * origin is {@code verify.example.com/tlog}. The origin names the deployment's log, and any
         * instance may sign its checkpoints, so it must not differ between instances: instances on
         * one host answering on different ports (scale-out.sh, the compose file) share it, which a
         * port in it would break. User information never enters it.
         */
        public String originFor(String publicUrl) {
            return origin.orElseGet(() -> {
                java.net.URI url;
                try {
                    url = new java.net.URI(publicUrl);
                } catch (java.net.URISyntaxException e) {
                    throw new IllegalArgumentException(
                            "public.url is no URL to name the transparency log by: set public.url or tlog.origin");
                }
                String host = url.getHost();
                if (host == null && url.getRawAuthority() != null) {
                    // java.net.URI takes no host with '_' (Docker service names): read it from the authority.
                    String authority = url.getRawAuthority().replaceFirst("^.*@", "");
                    host = authority.startsWith("[") ? authority : authority.replaceFirst(":\\d*$", "");
                }
                if (host == null || host.isEmpty()) {
                    throw new IllegalArgumentException(
                            "public.url has no host to name the transparency log by: set public.url or tlog.origin");
                }
                String path = url.getRawPath() == null ? "" : url.getRawPath().replaceAll("/+$", "");
                return host + path + "/tlog";
            });
        }
    }

    /** {@code retention.ms} of the topics Proofline creates; -1 keeps records for ever. */
    public record TopicRetention(long inputMs, long receiptsMs, long deadLetterMs) {}

    /** How many long-lived connections one instance holds, and for how long. */
    public record ConnectionLimits(
            int httpConnections,
            int httpConnectionsPerAddress,
            int httpThreads,
            Duration httpHeadTimeout,
            Duration httpBodyTimeout,
            int feedClients,
            Duration feedConnected,
            int mcpConnections,
            int mcpSessions) {}

    private static PaymentTerms paymentTerms(ProoflineConfig config) {
        Optional<String> facilitator = Settings.PAYMENT_FACILITATOR_URL.valueIn(config);
        Optional<String> payTo = Settings.PAYMENT_PAY_TO.valueIn(config);
        if (facilitator.isPresent() && payTo.isEmpty()) {
            throw new IllegalArgumentException("payment.pay.to is required when payment.facilitator.url is set");
        }
        return new PaymentTerms(
                facilitator,
                Settings.PAYMENT_NETWORK.in(config),
                Settings.PAYMENT_ASSET.in(config),
                Settings.PAYMENT_ASSET_NAME.in(config),
                Settings.PAYMENT_ASSET_VERSION.in(config),
                payTo.orElse(""),
                Settings.PAYMENT_PRICE_VERIFY.in(config),
                Settings.PAYMENT_PRICE_SCORE.in(config),
                Settings.PAYMENT_MAX_TIMEOUT_SECONDS.in(config),
                (int) Settings.VERIFY_TIMEOUT.in(config).toSeconds() + PaymentTerms.SETTLE_SECONDS);
    }

    /** Who may call what ({@code docs/access.md}): where keys are kept, which proxies and origins are trusted. */
    public record AccessSettings(String callersTopic, List<String> trustedProxies, List<String> corsOrigins) {
        public AccessSettings {
            trustedProxies = List.copyOf(trustedProxies);
            corsOrigins = List.copyOf(corsOrigins);
        }
    }

    /** Whether this node starts its own broker. */
    public boolean embeddedBroker() {
        return bootstrapServers.isEmpty();
    }
}
