package dev.proofline.launcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * A real single-node KRaft Kafka broker (broker and controller in one), run in this JVM from the
 * Kafka jars. Its log directory persists: started again on the same directory it keeps its topics
 * and offsets. It is formatted on first start only.
 *
 * <p>In-process, not a child JVM: {@code ./proofline up} is then one process to start, watch and
 * stop with Ctrl-C. The price is that a fatal broker fault halts the whole JVM (Kafka calls
 * {@code Exit.halt}); for a development default that is the right trade.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {
    private final KafkaRaftServer server;
    private final String bootstrapServers;

    private EmbeddedKafkaBroker(KafkaRaftServer server, String bootstrapServers) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
    }

    /** Starts a broker on {@code host:port} (0 picks a free port); returns once it accepts clients. */
    public static EmbeddedKafkaBroker start(Path logDir, String host, int port) throws IOException {
        Files.createDirectories(logDir);
        int kafkaPort = port == 0 ? freePort(host) : port;
        int controllerPort = freePort(host);
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.voters", "1@" + host + ":" + controllerPort);
        props.put(
                "listeners", "PLAINTEXT://" + host + ":" + kafkaPort + ",CONTROLLER://" + host + ":" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://" + host + ":" + kafkaPort);
        props.put("controller.listener.names", "CONTROLLER");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("log.dirs", logDir.toAbsolutePath().toString());
        props.put("num.partitions", "1");
        props.put("auto.create.topics.enable", "false");
        // One node: every internal topic has one replica, and exactly-once needs min ISR 1.
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "1");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        if (!Files.exists(logDir.resolve("meta.properties"))) {
            format(logDir, props);
        }
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
        server.startup();
        return new EmbeddedKafkaBroker(server, host + ":" + kafkaPort);
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }

    private static void format(Path logDir, Properties props) throws IOException {
        Path config = Files.createTempFile("proofline-kraft", ".properties");
        try {
            try (Writer out = Files.newBufferedWriter(config)) {
                props.store(out, "proofline embedded broker");
            }
            ByteArrayOutputStream output = new ByteArrayOutputStream();
            int code = StorageTool.execute(
                    new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()},
                    new PrintStream(output, true, StandardCharsets.UTF_8));
            if (code != 0) {
                throw new IOException("formatting " + logDir + " failed: "
                        + output.toString(StandardCharsets.UTF_8).trim());
            }
        } finally {
            Files.deleteIfExists(config);
        }
    }

    static int freePort(String host) throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return socket.getLocalPort();
        }
    }
}
