package dev.proofline.launcher;

import dev.proofline.access.AllowanceLedger;
import dev.proofline.access.CallerRegistry;
import dev.proofline.access.InstanceCredential;
import dev.proofline.access.PaymentClaims;
import dev.proofline.access.SubmitterStamp;
import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.DeploymentSecret;
import dev.proofline.attestor.FastEd25519;
import dev.proofline.attestor.KeyRing;
import dev.proofline.contract.Topics;
import dev.proofline.engine.EngineSettings;
import dev.proofline.engine.VerificationEngine;
import dev.proofline.query.access.AccessFilter;
import dev.proofline.query.access.ClientAddresses;
import dev.proofline.query.access.CorsPolicy;
import dev.proofline.query.discovery.DiscoveryDocuments;
import dev.proofline.query.http.AgentRoutes;
import dev.proofline.query.http.ApiDocsRoutes;
import dev.proofline.query.http.DashboardRoutes;
import dev.proofline.query.http.DiscoveryRoutes;
import dev.proofline.query.http.HttpServer;
import dev.proofline.query.http.LiveReceipts;
import dev.proofline.query.http.PaymentRoutes;
import dev.proofline.query.http.ReceiptRoutes;
import dev.proofline.query.http.RouteGroup;
import dev.proofline.query.http.ScoreRoutes;
import dev.proofline.query.http.TransparencyLogRoutes;
import dev.proofline.query.http.VerifyRoutes;
import dev.proofline.query.mcp.McpEndpoint;
import dev.proofline.query.payment.Facilitator;
import dev.proofline.query.payment.FreeAllowance;
import dev.proofline.query.payment.Metering;
import dev.proofline.query.payment.X402Payments;
import dev.proofline.query.score.ScoreAnswers;
import dev.proofline.query.score.ScoreQueries;
import dev.proofline.query.tlog.PublishedLog;
import dev.proofline.query.verify.VerificationFrontDoor;
import dev.proofline.query.verify.WaitingBytes;
import dev.proofline.reputation.AgentRankings;
import dev.proofline.reputation.ReputationTopology;
import dev.proofline.reputation.query.AgentDirectory;
import dev.proofline.reputation.query.Instances;
import dev.proofline.reputation.query.NotQueryableException;
import dev.proofline.reputation.query.ReceiptIndex;
import dev.proofline.reputation.query.ReceiptLog;
import dev.proofline.reputation.query.RecentReceipts;
import dev.proofline.reputation.query.RoutedAgentHistories;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.CorrelatedReplies;
import dev.proofline.schemas.DeliveryDeadline;
import dev.proofline.schemas.RegistryStore;
import dev.proofline.schemas.RestSchemaRegistryClient;
import dev.proofline.schemas.SchemaRegistryClient;
import dev.proofline.schemas.VerificationIds;
import dev.proofline.schemas.avro.Receipt;
import dev.proofline.schemas.avro.ScoreUpdate;
import dev.proofline.tlog.NoteKey;
import dev.proofline.tlog.SignedLogs;
import dev.proofline.topology.EagerCommit;
import dev.proofline.topology.OpenTransactions;
import dev.proofline.topology.PassLimit;
import dev.proofline.topology.PipelineListener;
import dev.proofline.topology.PipelineProgress;
import dev.proofline.topology.Receipts;
import dev.proofline.topology.RecordTimeOrNow;
import dev.proofline.topology.SkipUnreadableRecords;
import dev.proofline.topology.TopicLimits;
import dev.proofline.topology.VerificationTopology;
import dev.proofline.topology.tlog.TransparencyLogTopology;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running Proofline: the embedded broker (unless an external cluster is configured), its
 * topics, the signing keys, the schema registry (embedded unless one is configured), the Kafka
 * Streams application (verification and scores) and the HTTP server (REST, MCP, discovery,
 * registry, metrics, dashboard), started in that order and closed in reverse.
 */
public final class ProoflineNode implements AutoCloseable {
    /**
     * The page origins MCP takes (against DNS rebinding): this deployment's own, and the browser
     * origins the operator allowed for CORS, which may call /mcp like any other route. Exact
     * origins only: the SDK would read a '*' as a pattern.
     */
    private static List<String> mcpOrigins(String publicUrl, String httpUrl, int httpPort, List<String> cors) {
        List<String> origins = new ArrayList<>(List.of(publicUrl, httpUrl, "http://localhost:" + httpPort));
        cors.stream()
                .map(String::trim)
                .filter(o -> !o.isEmpty() && !o.contains("*"))
                .forEach(origins::add);
        return origins;
    }

    private static final Logger LOG = LoggerFactory.getLogger(ProoflineNode.class);
    /** The Streams producers' batch size; see {@link #streamsProperties}. */
    static final int STREAMS_BATCH_BYTES = 256 * 1024;
    /** Room a batch leaves under its topic's record limit (a batch's own header is 61 bytes). */
    private static final int BATCH_HEADROOM_BYTES = 1024;
    /** How long a stream thread's transaction may stay open; see {@link #streamsProperties}. */
    static final int STREAMS_TRANSACTION_TIMEOUT_MS = 45_000;

    private final Closer resources;
    private final KafkaStreams streams;
    private final String bootstrapServers;
    private final String httpUrl;
    private final Path dataDir;
    private final Optional<String> newOperatorToken;

    private ProoflineNode(
            Closer resources,
            KafkaStreams streams,
            String bootstrapServers,
            String httpUrl,
            Path dataDir,
            Optional<String> newOperatorToken) {
        this.resources = resources;
        this.streams = streams;
        this.bootstrapServers = bootstrapServers;
        this.httpUrl = httpUrl;
        this.dataDir = dataDir;
        this.newOperatorToken = newOperatorToken;
    }

    public static ProoflineNode start(ProoflineConfig config, Path defaultDataDir) throws Exception {
        return start(ProoflineSettings.resolve(config, defaultDataDir));
    }

    public static ProoflineNode start(ProoflineSettings settings) throws Exception {
        Closer resources = new Closer();
        try {
            resources.add(DataDirLock.acquire(settings.dataDir()));
            String bootstrap = settings.bootstrapServers().orElseGet(() -> startBroker(settings, resources));
            Map<String, Object> client = new HashMap<>(settings.clientOverrides());
            client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            Topics topics = settings.topics();
            Replication replication;
            TopicLimits limits;
            String clusterId;
            try (Admin admin = Admin.create(client)) {
                clusterId = KafkaReachability.await(admin, bootstrap);
                replication = Replication.decide(
                        settings, admin.describeCluster().nodes().get().size());
                Set<String> created = TopicProvisioner.ensure(
                        admin,
                        topics,
                        settings.partitions(),
                        replication,
                        settings.maxRequestBytes(),
                        settings.retention(),
                        settings.transparencyLog().enabled()
                                ? Optional.of(settings.transparencyLog().topic())
                                : Optional.empty());
                limits = ExistingTopicLimits.read(admin, topics, created, deadLetterRequestSize(settings));
            }
            LOG.info("topics Proofline creates get {}", replication);
            // Instances that share the work must share the keys: point keys.dir at the same directory.
            KeyRing keys = KeyRing.openOrCreate(settings.keysDir(), Clock.systemUTC());
            FastEd25519.unavailableBecause()
                    .ifPresent(why -> LOG.info("AWS-LC does not load here ({}): Bouncy Castle signs", why.toString()));
            DeploymentSecret secret = DeploymentSecret.openOrCreate(settings.keysDir());
            CallerRegistry callers = resources.add(CallerRegistry.open(
                    client,
                    settings.access().callersTopic(),
                    secret,
                    replication.factor(),
                    replication.topicConfigs()));
            SharedKeys.check(callers, keys, secret);
            Optional<String> newOperatorToken = OperatorKey.ensure(callers, settings.dataDir());
            SchemaRegistryClient registry = registry(settings, client, replication, resources);

            // application.server must name the HTTP port before Streams starts, so a free one is chosen now.
            int httpPort =
                    settings.httpPort() != 0 ? settings.httpPort() : EmbeddedKafkaBroker.freePort(settings.host());
            String httpUrl = "http://" + settings.host() + ":" + httpPort;
            String publicUrl = settings.publicUrl().orElse(httpUrl);
            EngineSettings engineSettings = EngineSettings.defaults()
                    .withPublicUrl(publicUrl)
                    .withMaxRequestBytes(settings.maxRequestBytes())
                    .withBudgetSteps(settings.budgetSteps())
                    .withFormatAssertion(settings.formatAssertion());
            Attestor attestor = new Attestor(keys);
            VerificationEngine engine = new VerificationEngine(engineSettings, attestor);
            AvroSerde<Receipt> receipts = new AvroSerde<>(registry, Receipt.getClassSchema());
            AvroSerde<ScoreUpdate> scores = new AvroSerde<>(registry, ScoreUpdate.getClassSchema());
            // Register now, not at the first record: a registry problem stops start-up, and instances
            // started one after another agree on ids.
            registry.register(AvroSerde.valueSubject(topics.receipts()), Receipt.getClassSchema());
            registry.register(AvroSerde.valueSubject(topics.scores()), ScoreUpdate.getClassSchema());

            VerificationIds ids = new VerificationIds(secret.keyFor("verification-ids"));
            SubmitterStamp stamp = new SubmitterStamp(secret);
            CallerAttribution attribution = new CallerAttribution(ids, stamp, callers);
            PrometheusMetrics metrics = resources.add(new PrometheusMetrics());
            metrics.countForgeries(stamp::forgedCount, callers::forgedCount);
            StreamsBuilder builder = new StreamsBuilder();
            AgentRankings rankings = new AgentRankings();
            KStream<String, Receipt> receiptStream = ReputationTopology.receipts(builder, topics, receipts);
            ReputationTopology.addTo(
                    builder,
                    receiptStream,
                    topics,
                    scores,
                    settings.receiptIndexRetention(),
                    settings.scoreHalfLife(),
                    rankings);
            // The log's key is derived from the deployment secret: every instance signs with the same one.
            // Named only when the log runs: a node without one needs no origin from its public URL.
            Optional<NoteKey> logKey = settings.transparencyLog().enabled()
                    ? Optional.of(new NoteKey(
                            settings.transparencyLog().originFor(publicUrl), secret.keyFor("transparency-log")))
                    : Optional.empty();
            if (settings.transparencyLog().enabled()) {
                TransparencyLogTopology.addTo(
                        builder,
                        // A new processor: it shifts the generated names of the log's sink and global store,
                        // which no store, changelog or repartition topic depends on (those are named).
                        receiptStream.filter(
                                (agent, receipt) -> ReputationTopology.couldBeProoflines(receipt),
                                Named.as("tlog-receipts-proofline-could-write")),
                        settings.transparencyLog().topic(),
                        logKey.orElseThrow(),
                        signedLogs(settings.keysDir()),
                        settings.transparencyLog().checkpointInterval(),
                        ProoflineSettings.TransparencyLogSettings.CHECKPOINT_EVERY);
            }
            Properties props = streamsProperties(
                    settings, bootstrap, InstanceId.of(settings.dataDir()), replication.streamsConfigs(), limits);
            props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, settings.host() + ":" + httpPort);
            PipelineProgress progress = new PipelineProgress();
            OpenTransactions transactions = new OpenTransactions();
            KafkaStreams streams = new KafkaStreams(
                    VerificationTopology.addTo(
                            builder.build(),
                            topics,
                            engine,
                            receipts,
                            Clock.systemUTC(),
                            PipelineListener.both(metrics, progress),
                            attribution,
                            new EagerCommit(settings.eagerCommitAge(), settings.eagerCommitGap()),
                            limits,
                            new PassLimit(transactions, longestPass(props))),
                    props,
                    transactions.clientSupplier(new StreamsConfig(props).getKafkaClientSupplier()));
            metrics.bind(streams);
            Admin healthAdmin = resources.add(Admin.create(client));
            StreamThreadHealth threads = new StreamThreadHealth(
                    streams,
                    progress,
                    metrics,
                    new ReplacedThreadMembers(
                            healthAdmin, props.getProperty(StreamsConfig.APPLICATION_ID_CONFIG), staticMembers(props)));

            KafkaProducer<String, byte[]> frontDoor =
                    frontDoorProducer(client, settings.maxRequestBytes(), settings.verifyTimeout());
            // Bounded: with the cluster gone, a plain close() waits for every unsent request's delivery timeout.
            resources.add(() -> frontDoor.close(Duration.ofSeconds(5)));
            LiveReceipts liveFeed = new LiveReceipts(
                    receipts,
                    callers,
                    settings.connections().feedClients(),
                    settings.connections().feedConnected());
            RecentReceipts recentReceipts = new RecentReceipts(settings.receiptCacheBytes());
            // One reader of every committed receipt feeds the callers waiting on it, the live feed and
            // the cache that answers reads of recent receipts.
            CorrelatedReplies replies = resources.add(new CorrelatedReplies(
                    CorrelatedReplies.consumer(client, false),
                    topics,
                    true,
                    reply -> {
                        liveFeed.accept(reply);
                        if (reply.isReceipt()) {
                            recentReceipts.add(reply.partition(), reply.offset(), reply.value());
                        }
                    },
                    "proofline-replies"));
            VerificationFrontDoor verification = new VerificationFrontDoor(
                    engine.parser(),
                    frontDoor,
                    replies,
                    receipts,
                    topics.input(),
                    settings.verifyTimeout(),
                    stamp,
                    ids,
                    new WaitingBytes(settings.maxWaitingBytes()),
                    recentReceipts::answered);
            InstanceCredential credential = new InstanceCredential(secret);
            Instances instances = new Instances(
                    streams, new HostInfo(settings.host(), httpPort), InstanceCredential.HEADER, credential.value());
            RoutedAgentHistories histories = new RoutedAgentHistories(instances);
            ReceiptLog receiptLog = resources.add(new ReceiptLog(client, topics.receipts(), receipts, recentReceipts));
            ScoreQueries scoreQueries = new ScoreQueries(
                    histories, new ScoreAnswers(engineSettings, attestor, Clock.systemUTC(), settings.scoreHalfLife()));
            Metering metering = metering(settings, client, replication, secret, publicUrl, metrics, resources);
            McpEndpoint mcp = resources.add(new McpEndpoint(
                    verification,
                    metering,
                    scoreQueries,
                    EngineSettings.VERIFIER_VERSION,
                    mcpOrigins(publicUrl, httpUrl, httpPort, settings.access().corsOrigins()),
                    // Loopback names too: no other site's page can reach them by rebinding its own name.
                    List.of(
                            URI.create(publicUrl).getAuthority(),
                            settings.host() + ":" + httpPort,
                            "localhost:" + httpPort,
                            "127.0.0.1:" + httpPort,
                            "[::1]:" + httpPort),
                    settings.connections().mcpConnections(),
                    settings.connections().mcpSessions()));
            // Leave the group on a clean stop, so a restarted or surviving instance takes the
            // partitions over at once rather than after this member's session times out.
            resources.add(() -> streams.close(CloseOptions.timeout(Duration.ofSeconds(30))
                    .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)));

            Optional<PublishedLog> publishedLog = settings.transparencyLog().enabled()
                    ? Optional.of(new PublishedLog(
                            key -> transparencyLogStore(streams).get(key),
                            // a thirty-second of the server's threads may wait for a tile (32 of 1,024)
                            Math.max(1, settings.connections().httpThreads() / 32)))
                    : Optional.empty();
            PaymentRoutes payments = new PaymentRoutes(metering, publicUrl);
            List<RouteGroup> routes = new ArrayList<>(List.of(
                    new VerifyRoutes(verification, metering, publicUrl),
                    payments,
                    new ScoreRoutes(scoreQueries, histories, metering, publicUrl),
                    new AgentRoutes(new AgentDirectory(instances, rankings), histories, receiptLog),
                    new ReceiptRoutes(new ReceiptIndex(instances, recentReceipts), receiptLog, publishedLog),
                    liveFeed,
                    new DashboardRoutes(),
                    new ApiDocsRoutes(),
                    new DiscoveryRoutes(
                            new DiscoveryDocuments(
                                    engineSettings,
                                    keys,
                                    publishedLog.map(log -> new DiscoveryDocuments.TransparencyLog(
                                            logKey.orElseThrow().name(),
                                            logKey.orElseThrow().verifierKey()))),
                            streams,
                            healthAdmin,
                            settings.maxRequestBytes(),
                            threads,
                            payments::llmsSections),
                    metrics,
                    mcp));
            publishedLog.ifPresent(log -> routes.add(new TransparencyLogRoutes(log)));
            if (registry instanceof RegistryStore embedded) {
                routes.add(new RegistryRoutes(embedded));
            }
            ClientAddresses addresses = new ClientAddresses(settings.access().trustedProxies());
            AccessFilter access = new AccessFilter(
                    callers,
                    credential,
                    addresses,
                    new CorsPolicy(settings.access().corsOrigins()));
            HttpServer http = HttpServer.start(
                    settings.host(),
                    httpPort,
                    new HttpServer.Limits(
                            settings.maxRequestBytes(),
                            settings.connections().httpConnections(),
                            settings.connections().httpConnectionsPerAddress(),
                            addresses::isTrusted,
                            settings.connections().httpThreads(),
                            settings.connections().httpHeadTimeout(),
                            settings.connections().httpBodyTimeout()),
                    access,
                    routes);
            resources.add(http); // stops early: no new requests while the rest stops
            resources.add(liveFeed); // stops first: nothing is sent to connections the server is closing

            LocalStateCluster.claim(settings.dataDir(), clusterId, streams::cleanUp);
            startAndAwaitRunning(streams, threads);
            LOG.info(
                    "pipeline running: {} -> {} | {}, signing with key {} through {}",
                    topics.input(),
                    topics.receipts(),
                    topics.deadLetter(),
                    keys.signingKey().version(),
                    keys.signingKey().signer().implementation());
            if (settings.transparencyLog().enabled()) {
                LOG.info(
                        "transparency log {} on topic {}: checkpoints signed with {}",
                        logKey.orElseThrow().name(),
                        settings.transparencyLog().topic(),
                        logKey.orElseThrow().verifier());
            }
            return new ProoflineNode(resources, streams, bootstrap, httpUrl, settings.dataDir(), newOperatorToken);
        } catch (Exception | Error e) {
            resources.close();
            throw e;
        }
    }

    /** The line {@code up} prints when ready. */
    public String readyLine() {
        return "Proofline ready: kafka=" + bootstrapServers + " http=" + httpUrl;
    }

    /**
     * The operator token made by this start, when it made one (a new deployment): {@code up} shows
     * it once. It is also kept in {@code <data.dir>/operator.token}.
     */
    public Optional<String> newOperatorToken() {
        return newOperatorToken;
    }

    /** The operator token kept in this node's data dir, if it has one (tests and tools on this machine). */
    public Optional<String> operatorToken() {
        return OperatorKey.read(dataDir);
    }

    public Path operatorTokenFile() {
        return dataDir.resolve(OperatorKey.FILE);
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public String httpUrl() {
        return httpUrl;
    }

    /**
     * Holds record processing (Streams keeps its threads, tasks and transactions) while input piles
     * up: the bench uses it to time the pipeline alone on pre-loaded input.
     */
    public void pauseProcessing() {
        streams.pause();
    }

    public void resumeProcessing() {
        streams.resume();
    }

    /** Kafka Streams' own metrics (what the bench reads each sub-topology's cost from). */
    public Map<org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric> streamsMetrics() {
        return streams.metrics();
    }

    @Override
    public void close() {
        resources.close();
        LOG.info("Proofline stopped");
    }

    /**
     * The free allowance, counted across instances; and x402 payments past it when a facilitator is
     * configured ({@code docs/payments.md}).
     */
    private static Metering metering(
            ProoflineSettings settings,
            Map<String, Object> client,
            Replication replication,
            DeploymentSecret secret,
            String publicUrl,
            PrometheusMetrics metrics,
            Closer resources)
            throws java.io.IOException {
        AllowanceLedger ledger = resources.add(AllowanceLedger.open(
                client,
                settings.applicationId() + "-allowance",
                InstanceId.of(settings.dataDir()),
                secret,
                Clock.systemUTC(),
                replication.factor(),
                replication.topicConfigs()));
        FreeAllowance allowance =
                new FreeAllowance(ledger, settings.allowancePerDay(), publicUrl + "/mcp", Clock.systemUTC());
        Optional<X402Payments> payments = Optional.empty();
        if (settings.payment().enabled()) {
            PaymentClaims claims = resources.add(PaymentClaims.open(
                    client, settings.applicationId() + "-payments", replication.factor(), replication.topicConfigs()));
            payments = Optional.of(new X402Payments(
                    settings.payment(),
                    new Facilitator(settings.payment().facilitatorUrl().orElseThrow()),
                    claims,
                    allowance,
                    metrics,
                    Clock.systemUTC()));
            LOG.info(
                    "payments on: {} atomic units of {} on {} per verification past the allowance",
                    settings.payment().priceVerify(),
                    settings.payment().asset(),
                    settings.payment().network());
        }
        return new Metering(allowance, payments);
    }

    private static String startBroker(ProoflineSettings settings, Closer resources) {
        try {
            EmbeddedKafkaBroker broker = resources.add(EmbeddedKafkaBroker.start(
                    settings.dataDir().resolve("kafka"), settings.kafkaHost(), settings.kafkaPort()));
            LOG.info("embedded Kafka broker listening on {}", broker.bootstrapServers());
            return broker.bootstrapServers();
        } catch (Exception e) {
            throw new IllegalStateException("the embedded Kafka broker did not start: " + e.getMessage(), e);
        }
    }

    /** A configured registry over REST, or the embedded one kept in a compacted topic. */
    /** The published transparency log, as this instance's global store holds it. */
    /**
     * The logs the log's key has signed, kept beside the secret it is derived from. A keys.dir this
     * node may only read (a mounted secret) keeps the record in memory, and the guard lasts as long as
     * the process.
     */
    private static SignedLogs signedLogs(Path keysDir) {
        Path file = keysDir.resolve(SignedLogs.FILE);
        if (Files.isWritable(keysDir) && (!Files.exists(file) || Files.isWritable(file))) {
            return SignedLogs.inFile(file);
        }
        LOG.warn("tlog: keys.dir is read-only, so the logs its key signed are remembered only while this node runs");
        return SignedLogs.readOnly(file);
    }

    /** The largest record the Streams producer sends: a dead letter with its original in a header. */
    private static int deadLetterRequestSize(ProoflineSettings settings) {
        return TopicProvisioner.deadLetterBytes(settings.maxRequestBytes());
    }

    private static ReadOnlyKeyValueStore<String, byte[]> transparencyLogStore(KafkaStreams streams) {
        try {
            return streams.store(StoreQueryParameters.fromNameAndType(
                    TransparencyLogTopology.STORE, QueryableStoreTypes.<String, byte[]>keyValueStore()));
        } catch (InvalidStateStoreException e) {
            throw new NotQueryableException("the transparency log is not readable yet: " + e.getMessage());
        }
    }

    private static SchemaRegistryClient registry(
            ProoflineSettings settings, Map<String, Object> client, Replication replication, Closer resources) {
        Optional<String> url = settings.schemaRegistryUrl();
        return url.isPresent()
                ? new RestSchemaRegistryClient(url.get())
                : resources.add(RegistryStore.open(client, replication.factor(), replication.topicConfigs()));
    }

    private static KafkaProducer<String, byte[]> frontDoorProducer(
            Map<String, Object> client, int maxRequestBytes, Duration verifyTimeout) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        // A caller waits at most the verify timeout, so sending must not block longer on missing metadata.
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, verifyTimeout.toMillis());
        // Nor may it keep trying after the caller was told its request was not published (503).
        DeliveryDeadline.within(config, verifyTimeout);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 2 * maxRequestBytes + 65536);
        return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * Kafka Streams' settings: Proofline's, then {@code client.*}, then {@code replication}'s, then
     * {@code streams.*}, so an operator's {@code streams.*} setting wins.
     */
    static Properties streamsProperties(
            ProoflineSettings settings, String bootstrap, String instanceId, Map<String, Object> replication) {
        return streamsProperties(
                settings,
                bootstrap,
                instanceId,
                replication,
                new TopicLimits(Integer.MAX_VALUE, deadLetterRequestSize(settings)));
    }

    /** As above, for receipts and dead-letter topics that take records of at most {@code limits}. */
    static Properties streamsProperties(
            ProoflineSettings settings,
            String bootstrap,
            String instanceId,
            Map<String, Object> replication,
            TopicLimits limits) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, settings.applicationId());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        // Static membership, named by the data dir (Streams adds each thread's number): an instance
        // restarted after a crash takes its own place in the group at once, where a new member would
        // wait for the dead one's session to time out (45 s by default) before anything ran. An
        // empty streams.group.instance.id turns it off (docs/kafka.md).
        props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "proofline-" + instanceId);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put("processing.exception.handler.global.enabled", true); // Streams' own recommendation for 4.x
        // A record stamped with a negative time (a client may write one) would fail the thread again and again.
        props.put(StreamsConfig.DEFAULT_TIMESTAMP_EXTRACTOR_CLASS_CONFIG, RecordTimeOrNow.class);
        // Nor may a foreign record on a topic Proofline reads as receipts (bytes that are not one).
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, SkipUnreadableRecords.class);
        props.put(
                StreamsConfig.STATE_DIR_CONFIG,
                settings.dataDir().resolve("streams").toAbsolutePath().toString());
        // A dead letter carries its original in a header, so it may be several times the request
        // limit; a receipt's size does not follow the request's, and a small request may still get
        // the largest receipt.
        props.put(
                StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG),
                Math.max(deadLetterRequestSize(settings), Receipts.LARGEST_RECORD_BYTES));
        // Right after a commit, the next transaction's first write can find the last one's markers
        // still being written: the broker answers CONCURRENT_TRANSACTIONS and the producer retries
        // after its backoff, 100 ms by default, which a caller waiting for its receipt saw as a
        // p99 of 200 ms (the delay also made the request miss its early commit). The markers take
        // a few ms; the backoff still grows to retry.backoff.max.ms for a lasting failure.
        props.put(StreamsConfig.producerPrefix(ProducerConfig.RETRY_BACKOFF_MS_CONFIG), 10);
        // A stream thread may commit only after a pass over its tasks, one record each at least, and
        // a record may take the whole step budget: about 4 s of pattern matching here. Past
        // Streams' own 10 s the broker aborts the transaction, fences the thread and the pass is
        // done again: six such requests, one per partition of one thread, were verified 17 times
        // in 109 s, against 6 times in 35 s with this (SlowRecordsIT). A dead instance's
        // partitions move only after the group's session timeout (45 s by default), so its open
        // transaction holds readers back about as long as that (and the broker's scan for expired
        // transactions: every 10 s by default, every second on Proofline's embedded brokers).
        props.put(
                StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG),
                STREAMS_TRANSACTION_TIMEOUT_MS);
        // Streams' producer lingers 100 ms, as long as a commit interval, but Kafka's 16 KiB batch
        // fills with about ten receipts and is sent at once: a Produce request, each with its broker
        // overhead, per ten receipts of a backlog. Batches of this size are sent when a commit
        // flushes them, in fewer and larger requests (benchmarks/PERFORMANCE.md). A batch must fit
        // its topic's record limit like one record: 1 MB for the topics Kafka makes, the
        // dead-letter topic's, which a small max.request.bytes makes smaller than this, and a
        // receipts topic made smaller by its operator.
        int smallestLimit = Math.min(limits.receiptBytes(), limits.deadLetterBytes());
        props.put(
                StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG),
                Math.max(1024, Math.min(STREAMS_BATCH_BYTES, smallestLimit - BATCH_HEADROOM_BYTES)));
        if (!settings.eagerCommitAge().isZero() && !settings.eagerCommitGap().isZero()) {
            // A request held by the gap is committed by a punctuator, which runs only when the stream
            // thread's loop comes round: its poll must not block longer than the gap.
            props.put(
                    StreamsConfig.POLL_MS_CONFIG,
                    Math.min(100L, settings.eagerCommitGap().toMillis()));
        }
        props.putAll(settings.clientOverrides());
        props.putAll(replication);
        props.putAll(settings.streamsOverrides());
        if ("".equals(props.get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG))) {
            props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG); // Kafka refuses an empty one
        }
        refuseSkippingRecords(props.get(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG));
        return props;
    }

    /**
     * A pass that runs too long fails its stream thread on purpose ({@link PassLimit}); a processing
     * exception handler that continued instead would skip the record, which would then end as
     * neither a receipt nor a dead letter. Checked on the merged settings, whichever prefix set it.
     */
    private static void refuseSkippingRecords(Object handler) {
        String failing = LogAndFailProcessingExceptionHandler.class.getName();
        String name = handler instanceof Class<?> type
                ? type.getName()
                : String.valueOf(handler).trim();
        if (handler != null && !name.equals(failing)) {
            throw new IllegalArgumentException(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG + " is " + name
                    + ", which may skip records: Proofline ends every record as a receipt or a dead letter,"
                    + " so it may only be " + failing + " (the default)");
        }
    }

    /**
     * The static member ({@code group.instance.id}) of each stream thread by its number, as Kafka
     * Streams makes it from the settings (an operator may set it for the main consumer alone).
     */
    static IntFunction<Optional<String>> staticMembers(Properties streamsProperties) {
        StreamsConfig config = new StreamsConfig(streamsProperties);
        String groupId = config.getString(StreamsConfig.APPLICATION_ID_CONFIG);
        return thread -> Optional.ofNullable(config.getMainConsumerConfigs(groupId, "unused", thread)
                        .get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG))
                .map(String::valueOf);
    }

    /**
     * How long a stream thread's transaction may be open before a pass stops taking more records
     * ({@link PassLimit}): a third of the transaction timeout, which leaves the rest for the one
     * record per task that always gets through, and never less than two commit intervals, so that
     * ordinary transactions, which last one interval, never meet it.
     */
    static Duration longestPass(Properties streamsProperties) {
        StreamsConfig config = new StreamsConfig(streamsProperties);
        // Read as Kafka reads it: whatever form the setting was given in, with Streams' own rules
        // for prefixes.
        long timeout = (Integer) ConfigDef.parseType(
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                config.getProducerConfigs("unused").get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG),
                ConfigDef.Type.INT);
        long commitInterval = config.getLong(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG);
        return Duration.ofMillis(Math.max(timeout / 3, 2 * commitInterval));
    }

    private static void startAndAwaitRunning(KafkaStreams streams, StreamThreadHealth threads)
            throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING || now == KafkaStreams.State.ERROR) {
                running.countDown();
            }
        });
        // No record can kill a thread (the engine answers every record): a thread dies outside any
        // record, or because PassLimit ended a pass that ran too long. Either way: replace it, count
        // it, and keep serving.
        streams.setUncaughtExceptionHandler(threads::replace);
        streams.start();
        if (!running.await(120, TimeUnit.SECONDS) || streams.state() != KafkaStreams.State.RUNNING) {
            throw new IllegalStateException("the pipeline did not reach RUNNING (state " + streams.state() + ")");
        }
    }
}
