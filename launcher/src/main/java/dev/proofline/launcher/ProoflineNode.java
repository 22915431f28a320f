package dev.proofline.launcher;

import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.KeyRing;
import dev.proofline.engine.EngineSettings;
import dev.proofline.engine.VerificationEngine;
import dev.proofline.reputation.AgentDirectory;
import dev.proofline.reputation.AgentRoutes;
import dev.proofline.reputation.DashboardRoutes;
import dev.proofline.reputation.DiscoveryDocuments;
import dev.proofline.reputation.LiveReceipts;
import dev.proofline.reputation.ReceiptIndex;
import dev.proofline.reputation.ReceiptLog;
import dev.proofline.reputation.ReceiptRoutes;
import dev.proofline.reputation.DiscoveryRoutes;
import dev.proofline.reputation.McpEndpoint;
import dev.proofline.reputation.ReceiptReplies;
import dev.proofline.reputation.ReputationTopology;
import dev.proofline.reputation.RoutedAgentHistories;
import dev.proofline.reputation.ScoreAnswers;
import dev.proofline.reputation.ScoreQueries;
import dev.proofline.reputation.ScoreRoutes;
import dev.proofline.reputation.VerificationFrontDoor;
import dev.proofline.reputation.VerifyRoutes;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.RegistryStore;
import dev.proofline.schemas.RestSchemaRegistryClient;
import dev.proofline.schemas.SchemaRegistryClient;
import dev.proofline.schemas.avro.Receipt;
import dev.proofline.schemas.avro.ScoreUpdate;
import dev.proofline.topology.ProoflineTopics;
import dev.proofline.topology.VerificationTopology;
import io.javalin.Javalin;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running Proofline: the embedded broker (unless an external cluster is configured), its
 * topics, the signing keys, the schema registry (embedded unless one is configured), the Kafka
 * Streams application (verification and scores) and the HTTP server (REST, MCP, discovery,
 * registry, metrics, dashboard), started in that order and closed in reverse.
 */
public final class ProoflineNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProoflineNode.class);

    private final Closer resources;
    private final KafkaStreams streams;
    private final String bootstrapServers;
    private final String httpUrl;

    private ProoflineNode(Closer resources, KafkaStreams streams, String bootstrapServers, String httpUrl) {
        this.resources = resources;
        this.streams = streams;
        this.bootstrapServers = bootstrapServers;
        this.httpUrl = httpUrl;
    }

    public static ProoflineNode start(ProoflineConfig config, Path defaultDataDir) throws Exception {
        Closer resources = new Closer();
        try {
            Path dataDir = config.get("data.dir").map(Path::of).orElse(defaultDataDir);
            resources.add(DataDirLock.acquire(dataDir));
            String host = config.get("host", "127.0.0.1");
            Optional<String> external = config.get("bootstrap.servers");
            String bootstrap = external.isPresent() ? external.get() : startBroker(config, dataDir, host, resources);
            Map<String, Object> client = new HashMap<>(config.withPrefix(ProoflineConfig.CLIENT_PREFIX));
            client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            Optional<Short> replication = config.get("topics.replication.factor").map(Short::parseShort)
                    .or(() -> external.isEmpty() ? Optional.of((short) 1) : Optional.empty());
            ProoflineTopics topics = topics(config);
            int maxRequestBytes = config.getInt("max.request.bytes", 1024 * 1024);
            try (Admin admin = Admin.create(client)) {
                TopicProvisioner.ensure(admin, topics, replication, maxRequestBytes);
            }
            // Instances that share the work must share the keys: point keys.dir at the same directory.
            KeyRing keys = KeyRing.openOrCreate(config.get("keys.dir").map(Path::of).orElse(dataDir.resolve("keys")),
                    Clock.systemUTC());
            SchemaRegistryClient registry = registry(config, client, replication, resources);
            Optional<RegistryStore> embeddedRegistry = registry instanceof RegistryStore store ? Optional.of(store) : Optional.empty();

            int httpPort = config.getInt("http.port", 8080);
            if (httpPort == 0) {
                httpPort = EmbeddedKafkaBroker.freePort(host); // application.server must name it before start
            }
            String httpUrl = "http://" + host + ":" + httpPort;
            String publicUrl = config.get("public.url", httpUrl);
            EngineSettings settings = new EngineSettings(publicUrl, "Proofline", 50, maxRequestBytes, 1024);
            Attestor attestor = new Attestor(keys);
            VerificationEngine engine = new VerificationEngine(settings, attestor);
            AvroSerde<Receipt> receipts = new AvroSerde<>(registry, Receipt.getClassSchema());
            AvroSerde<ScoreUpdate> scores = new AvroSerde<>(registry, ScoreUpdate.getClassSchema());
            // Register now, not at the first record: a registry problem stops start-up, and instances
            // started one after another agree on ids.
            registry.register(AvroSerde.valueSubject(topics.receipts()), Receipt.getClassSchema());
            registry.register(AvroSerde.valueSubject(ReputationTopology.SCORES_TOPIC), ScoreUpdate.getClassSchema());

            PrometheusMetrics metrics = resources.add(new PrometheusMetrics());
            StreamsBuilder builder = new StreamsBuilder();
            ReputationTopology.addTo(builder, topics.receipts(), receipts, scores,
                    Duration.ofHours(config.getInt("receipts.index.retention.hours", 168)));
            Properties props = streamsProperties(config, bootstrap, dataDir, maxRequestBytes);
            props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, host + ":" + httpPort);
            KafkaStreams streams = new KafkaStreams(VerificationTopology.addTo(builder.build(), topics, engine, receipts,
                    Clock.systemUTC(), metrics), props);
            metrics.bind(streams);

            Duration verifyTimeout = Duration.ofSeconds(config.getInt("verify.timeout.seconds", 10));
            KafkaProducer<String, byte[]> frontDoor = frontDoorProducer(client, maxRequestBytes, verifyTimeout);
            // Bounded: with the cluster gone, a plain close() waits for every unsent request's delivery timeout.
            resources.add(() -> frontDoor.close(Duration.ofSeconds(5)));
            ReceiptReplies replies = resources.add(new ReceiptReplies(client, topics, receipts));
            VerificationFrontDoor verification = new VerificationFrontDoor(engine.parser(), frontDoor, replies,
                    topics.input(), verifyTimeout);
            Admin healthAdmin = resources.add(Admin.create(client));
            HostInfo self = new HostInfo(host, httpPort);
            RoutedAgentHistories histories = new RoutedAgentHistories(streams, self);
            AgentDirectory directory = new AgentDirectory(streams, self);
            ReceiptLog receiptLog = resources.add(new ReceiptLog(client, topics.receipts(), receipts));
            LiveReceipts liveFeed = new LiveReceipts(receipts);
            replies.onEveryReceipt(liveFeed);
            ScoreQueries scoreQueries = new ScoreQueries(histories, new ScoreAnswers(settings, attestor, Clock.systemUTC()));
            McpEndpoint mcp = resources.add(new McpEndpoint(verification, scoreQueries, EngineSettings.VERIFIER_VERSION,
                    List.of(publicUrl, httpUrl, "http://localhost:" + httpPort),
                    List.of(URI.create(publicUrl).getAuthority(), host + ":" + httpPort, "localhost:" + httpPort)));
            // Leave the group on a clean stop, so a restarted or surviving instance takes the
            // partitions over at once rather than after this member's session times out.
            resources.add(() -> streams.close(CloseOptions.timeout(Duration.ofSeconds(30))
                    .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)));

            Javalin http = Javalin.create(cfg -> {
                cfg.startup.showJavalinBanner = false;
                cfg.http.maxRequestSize = 2L * maxRequestBytes; // larger bodies still get our 413, not Jetty's
                new VerifyRoutes(verification).mount(cfg);
                new ScoreRoutes(scoreQueries, histories).mount(cfg);
                new AgentRoutes(directory, histories, receiptLog).mount(cfg);
                new ReceiptRoutes(new ReceiptIndex(streams, self), receiptLog).mount(cfg);
                liveFeed.mount(cfg);
                new DashboardRoutes().mount(cfg);
                new DiscoveryRoutes(new DiscoveryDocuments(settings, keys), streams, healthAdmin, maxRequestBytes).mount(cfg);
                embeddedRegistry.ifPresent(store -> new RegistryRoutes(store).mount(cfg));
                metrics.mount(cfg);
                mcp.mount(cfg);
            }).start(host, httpPort);
            resources.add(http::stop); // stops early: no new requests while the rest stops
            resources.add(liveFeed); // stops first: nothing is sent to connections the server is closing

            startAndAwaitRunning(streams);
            LOG.info("pipeline running: {} -> {} | {}, signing with key {}", topics.input(), topics.receipts(),
                    topics.deadLetter(), keys.signingKey().version());
            return new ProoflineNode(resources, streams, bootstrap, httpUrl);
        } catch (Exception | Error e) {
            resources.close();
            throw e;
        }
    }

    /** The line {@code up} prints when ready. */
    public String readyLine() {
        return "Proofline ready: kafka=" + bootstrapServers + " http=" + httpUrl;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public String httpUrl() {
        return httpUrl;
    }

    @Override
    public void close() {
        resources.close();
        LOG.info("Proofline stopped");
    }

    private static String startBroker(ProoflineConfig config, Path dataDir, String host, Closer resources) throws Exception {
        EmbeddedKafkaBroker broker = resources.add(
                EmbeddedKafkaBroker.start(dataDir.resolve("kafka"), host, config.getInt("kafka.port", 9092)));
        LOG.info("embedded Kafka broker listening on {}", broker.bootstrapServers());
        return broker.bootstrapServers();
    }

    private static ProoflineTopics topics(ProoflineConfig config) {
        return new ProoflineTopics(config.get("topics.input", ProoflineTopics.DEFAULT_INPUT),
                config.get("topics.receipts", ProoflineTopics.DEFAULT_RECEIPTS),
                config.get("topics.dead.letter", ProoflineTopics.DEFAULT_DEAD_LETTER),
                config.getInt("topics.partitions", 3));
    }

    /** A configured registry over REST, or the embedded one kept in a compacted topic. */
    private static SchemaRegistryClient registry(ProoflineConfig config, Map<String, Object> client,
                                                 Optional<Short> replication, Closer resources) {
        Optional<String> url = config.get("schema.registry.url");
        return url.isPresent() ? new RestSchemaRegistryClient(url.get()) : resources.add(RegistryStore.open(client, replication));
    }

    private static KafkaProducer<String, byte[]> frontDoorProducer(Map<String, Object> client, int maxRequestBytes,
                                                                   Duration verifyTimeout) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        // A caller waits at most the verify timeout, so sending must not block longer on missing metadata.
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, verifyTimeout.toMillis());
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 2 * maxRequestBytes + 65536);
        return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }

    private static Properties streamsProperties(ProoflineConfig config, String bootstrap, Path dataDir, int maxRequestBytes) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.get("application.id", "proofline"));
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put("processing.exception.handler.global.enabled", true); // Streams' own recommendation for 4.x
        props.put(StreamsConfig.STATE_DIR_CONFIG, dataDir.resolve("streams").toAbsolutePath().toString());
        // A dead letter carries its original in a header, so it may be several times the request limit.
        props.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG), 5 * maxRequestBytes + 131072);
        props.putAll(config.withPrefix(ProoflineConfig.CLIENT_PREFIX));
        props.putAll(config.withPrefix(ProoflineConfig.STREAMS_PREFIX));
        return props;
    }

    private static void startAndAwaitRunning(KafkaStreams streams) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING || now == KafkaStreams.State.ERROR) {
                running.countDown();
            }
        });
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("stream thread failed, stopping the pipeline: {}", e.toString());
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.start();
        if (!running.await(120, TimeUnit.SECONDS) || streams.state() != KafkaStreams.State.RUNNING) {
            throw new IllegalStateException("the pipeline did not reach RUNNING (state " + streams.state() + ")");
        }
    }
}
