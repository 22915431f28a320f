package dev.proofline.launcher;

import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.KeyRing;
import dev.proofline.engine.EngineSettings;
import dev.proofline.engine.VerificationEngine;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.RegistryStore;
import dev.proofline.schemas.RestSchemaRegistryClient;
import dev.proofline.schemas.SchemaRegistryClient;
import dev.proofline.reputation.DiscoveryDocuments;
import dev.proofline.reputation.DiscoveryRoutes;
import dev.proofline.reputation.McpEndpoint;
import dev.proofline.reputation.ReceiptReplies;
import dev.proofline.reputation.RoutedAgentHistories;
import dev.proofline.reputation.ScoreQueries;
import dev.proofline.reputation.VerificationFrontDoor;
import dev.proofline.reputation.VerifyRoutes;
import dev.proofline.reputation.ReputationTopology;
import dev.proofline.reputation.ScoreAnswers;
import dev.proofline.reputation.ScoreRoutes;
import dev.proofline.schemas.avro.Receipt;
import dev.proofline.schemas.avro.ScoreUpdate;
import dev.proofline.topology.ProoflineTopics;
import dev.proofline.topology.VerificationTopology;
import io.javalin.Javalin;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
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
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running Proofline: the embedded broker (unless an external cluster is configured), its
 * topics, the signing keys, the schema registry (embedded unless one is configured), the HTTP
 * server and the Kafka Streams pipeline, started in that order and closed in reverse.
 */
public final class ProoflineNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProoflineNode.class);

    private final DataDirLock lock;
    private final EmbeddedKafkaBroker broker;
    private final RegistryStore registryStore;
    private final Javalin http;
    private final KafkaStreams streams;
    private final KafkaProducer<String, byte[]> frontDoor;
    private final ReceiptReplies replies;
    private final Admin healthAdmin;
    private final PrometheusMetrics metrics;
    private final McpEndpoint mcp;
    private final String bootstrapServers;
    private final String httpUrl;

    private ProoflineNode(DataDirLock lock, EmbeddedKafkaBroker broker, RegistryStore registryStore, Javalin http,
                          KafkaStreams streams, KafkaProducer<String, byte[]> frontDoor, ReceiptReplies replies,
                          Admin healthAdmin, PrometheusMetrics metrics, McpEndpoint mcp, String bootstrapServers,
                          String httpUrl) {
        this.lock = lock;
        this.broker = broker;
        this.registryStore = registryStore;
        this.http = http;
        this.streams = streams;
        this.frontDoor = frontDoor;
        this.replies = replies;
        this.healthAdmin = healthAdmin;
        this.metrics = metrics;
        this.mcp = mcp;
        this.bootstrapServers = bootstrapServers;
        this.httpUrl = httpUrl;
    }

    public static ProoflineNode start(ProoflineConfig config, Path defaultDataDir) throws Exception {
        Path dataDir = config.get("data.dir").map(Path::of).orElse(defaultDataDir);
        DataDirLock lock = DataDirLock.acquire(dataDir);
        String host = config.get("host", "127.0.0.1");
        EmbeddedKafkaBroker broker = null;
        RegistryStore store = null;
        Javalin http = null;
        KafkaProducer<String, byte[]> frontDoor = null;
        ReceiptReplies replies = null;
        Admin healthAdmin = null;
        PrometheusMetrics metrics = null;
        McpEndpoint mcp = null;
        try {
            Optional<String> external = config.get("bootstrap.servers");
            if (external.isEmpty()) {
                broker = EmbeddedKafkaBroker.start(dataDir.resolve("kafka"), host, config.getInt("kafka.port", 9092));
                LOG.info("embedded Kafka broker listening on {}", broker.bootstrapServers());
            }
            String bootstrap = external.isPresent() ? external.get() : broker.bootstrapServers();
            Map<String, Object> client = new HashMap<>(config.withPrefix(ProoflineConfig.CLIENT_PREFIX));
            client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            Optional<Short> replication = config.get("topics.replication.factor").map(Short::parseShort)
                    .or(() -> external.isEmpty() ? Optional.of((short) 1) : Optional.empty());
            ProoflineTopics topics = new ProoflineTopics(config.get("topics.input", ProoflineTopics.DEFAULT_INPUT),
                    config.get("topics.receipts", ProoflineTopics.DEFAULT_RECEIPTS),
                    config.get("topics.dead.letter", ProoflineTopics.DEFAULT_DEAD_LETTER),
                    config.getInt("topics.partitions", 3));
            int maxRequestBytes = config.getInt("max.request.bytes", 1024 * 1024);
            try (Admin admin = Admin.create(client)) {
                TopicProvisioner.ensure(admin, topics, replication, maxRequestBytes);
            }
            // Instances that share the work must share the keys: point keys.dir at the same directory.
            KeyRing keys = KeyRing.openOrCreate(config.get("keys.dir").map(Path::of).orElse(dataDir.resolve("keys")),
                    Clock.systemUTC());

            SchemaRegistryClient registry;
            Optional<String> registryUrl = config.get("schema.registry.url");
            if (registryUrl.isPresent()) {
                registry = new RestSchemaRegistryClient(registryUrl.get());
            } else {
                store = RegistryStore.open(client, replication);
                registry = store;
            }
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

            StreamsBuilder builder = new StreamsBuilder();
            ReputationTopology.addTo(builder, topics.receipts(), receipts, scores);
            metrics = new PrometheusMetrics();
            Topology topology = VerificationTopology.addTo(builder.build(), topics, engine, receipts, Clock.systemUTC(), metrics);
            Properties props = streamsProperties(config, bootstrap, dataDir, maxRequestBytes);
            props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, host + ":" + httpPort);
            KafkaStreams streams = new KafkaStreams(topology, props);
            metrics.bind(streams);
            PrometheusMetrics metricsRoutes = metrics;

            Map<String, Object> producerConfig = new HashMap<>(client);
            producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
            producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            producerConfig.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 2 * maxRequestBytes + 65536);
            frontDoor = new KafkaProducer<>(producerConfig, new StringSerializer(), new ByteArraySerializer());
            replies = new ReceiptReplies(client, topics, receipts);
            VerificationFrontDoor verification = new VerificationFrontDoor(engine.parser(), frontDoor, replies, topics.input(),
                    Duration.ofSeconds(config.getInt("verify.timeout.seconds", 10)));
            VerifyRoutes verifyRoutes = new VerifyRoutes(verification);
            healthAdmin = Admin.create(client);
            DiscoveryRoutes discovery = new DiscoveryRoutes(new DiscoveryDocuments(settings, keys), streams, healthAdmin,
                    maxRequestBytes);
            RegistryStore routesStore = store;
            RoutedAgentHistories histories = new RoutedAgentHistories(streams, new HostInfo(host, httpPort));
            ScoreQueries scoreQueries = new ScoreQueries(histories, new ScoreAnswers(settings, attestor, Clock.systemUTC()));
            ScoreRoutes scoreRoutes = new ScoreRoutes(scoreQueries, histories);
            String publicHost = URI.create(publicUrl).getAuthority();
            mcp = new McpEndpoint(verification, scoreQueries, EngineSettings.VERIFIER_VERSION,
                    List.of(publicUrl, httpUrl, "http://localhost:" + httpPort),
                    List.of(publicHost, host + ":" + httpPort, "localhost:" + httpPort));
            McpEndpoint mcpRoutes = mcp;
            http = Javalin.create(cfg -> {
                cfg.startup.showJavalinBanner = false;
                cfg.http.maxRequestSize = 2L * maxRequestBytes; // larger bodies still get our 413, not Jetty's
                verifyRoutes.mount(cfg);
                discovery.mount(cfg);
                metricsRoutes.mount(cfg);
                mcpRoutes.mount(cfg);
                if (routesStore != null) {
                    new RegistryRoutes(routesStore).mount(cfg);
                }
                scoreRoutes.mount(cfg);
            }).start(host, httpPort);
            startAndAwaitRunning(streams);
            LOG.info("pipeline running: {} -> {} | {}, signing with key {}", topics.input(), topics.receipts(),
                    topics.deadLetter(), keys.signingKey().version());
            return new ProoflineNode(lock, broker, store, http, streams, frontDoor, replies, healthAdmin, metrics, mcp,
                    bootstrap, httpUrl);
        } catch (Exception | Error e) {
            if (healthAdmin != null) {
                healthAdmin.close();
            }
            if (metrics != null) {
                metrics.close();
            }
            if (mcp != null) {
                mcp.close();
            }
            closeQuietly(http, replies, frontDoor, store, broker, lock);
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

    public KafkaStreams.State streamsState() {
        return streams.state();
    }

    @Override
    public void close() {
        http.stop(); // no new requests while the rest stops
        mcp.close();
        // Leave the group on a clean stop, so a restarted or surviving instance takes the partitions
        // over at once rather than after this member's session times out.
        streams.close(CloseOptions.timeout(Duration.ofSeconds(30))
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        healthAdmin.close(Duration.ofSeconds(5));
        metrics.close();
        closeQuietly(null, replies, frontDoor, registryStore, broker, lock);
        LOG.info("Proofline stopped");
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
            streams.close(Duration.ofSeconds(10));
            throw new IllegalStateException("the pipeline did not reach RUNNING (state " + streams.state() + ")");
        }
    }

    private static void closeQuietly(Javalin http, ReceiptReplies replies, KafkaProducer<String, byte[]> frontDoor,
                                     RegistryStore store, EmbeddedKafkaBroker broker, DataDirLock lock) {
        try {
            if (http != null) {
                http.stop();
            }
            if (replies != null) {
                replies.close();
            }
            if (frontDoor != null) {
                frontDoor.close(Duration.ofSeconds(5));
            }
            if (store != null) {
                store.close();
            }
            if (broker != null) {
                broker.close();
            }
            lock.close();
        } catch (Exception e) {
            LOG.warn("while stopping: {}", e.toString());
        }
    }
}
