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

    /**
     * One node of a KRaft cluster: its id, where it listens, the controller quorum (every node is
     * broker and controller, {@code id@host:port,...}), the cluster's id and how many nodes it has.
     */
    public record Node(
            int nodeId, String host, int port, int controllerPort, String voters, String clusterId, int clusterSize) {

        /** The one node of a single-node cluster. */
        static Node single(String host, int port, int controllerPort) {
            return new Node(1, host, port, controllerPort, "1@" + host + ":" + controllerPort, null, 1);
        }
    }

    /** Starts a broker on {@code host:port} (0 picks a free port); returns once it accepts clients. */
    public static EmbeddedKafkaBroker start(Path logDir, String host, int port) throws IOException {
        int[] free = freePorts(host, 2);
        int kafkaPort = port == 0 ? free[0] : port;
        int controllerPort = free[0] != kafkaPort ? free[0] : free[1];
        return start(logDir, Node.single(host, kafkaPort, controllerPort));
    }

    /**
     * Starts one node; in a cluster of several, every node must be starting at about the same time:
     * this returns once the node is unfenced, which needs a majority of controllers.
     */
    public static EmbeddedKafkaBroker start(Path logDir, Node node) throws IOException {
        Files.createDirectories(logDir);
        String host = node.host();
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", Integer.toString(node.nodeId()));
        props.put("controller.quorum.voters", node.voters());
        props.put(
                "listeners",
                "PLAINTEXT://" + host + ":" + node.port() + ",CONTROLLER://" + host + ":" + node.controllerPort());
        props.put("advertised.listeners", "PLAINTEXT://" + host + ":" + node.port());
        props.put("controller.listener.names", "CONTROLLER");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("log.dirs", logDir.toAbsolutePath().toString());
        props.put("num.partitions", "1");
        props.put("auto.create.topics.enable", "false");
        props.put("group.initial.rebalance.delay.ms", "0");
        // A dead producer's open transaction blocks read_committed readers of its partitions until
        // the broker aborts it: look for expired ones every second, not every 10 s (a map scan).
        props.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
        // Internal topics are replicated as widely as the cluster allows: three copies, two in sync
        // for a write, on three nodes or more; one copy on a single node (exactly-once needs min ISR 1 there).
        String replicas = Integer.toString(Math.min(3, node.clusterSize()));
        String minIsr = node.clusterSize() >= 3 ? "2" : "1";
        props.put("offsets.topic.replication.factor", replicas);
        props.put("offsets.topic.num.partitions", node.clusterSize() >= 3 ? "3" : "1");
        props.put("transaction.state.log.replication.factor", replicas);
        props.put("transaction.state.log.min.isr", minIsr);
        props.put("transaction.state.log.num.partitions", node.clusterSize() >= 3 ? "3" : "1");
        props.put("share.coordinator.state.topic.replication.factor", replicas);
        props.put("share.coordinator.state.topic.min.isr", minIsr);
        props.put("default.replication.factor", replicas);
        props.put("min.insync.replicas", minIsr);
        if (node.clusterSize() > 1) {
            // A CPU-starved 2-core machine must not cause elections: generous quorum timeouts.
            props.put("controller.quorum.election.timeout.ms", "5000");
            props.put("controller.quorum.fetch.timeout.ms", "10000");
            // Kafka's own default broker session (9 s, four missed 2 s heartbeats), no longer: a
            // restarted broker, even after a clean shutdown, is refused as a duplicate registration
            // until its last session expires, so the session is how long every restart takes.
            props.put("broker.session.timeout.ms", "9000");
            props.put("broker.heartbeat.interval.ms", "2000");
            props.put("replica.lag.time.max.ms", "30000");
            props.put("unclean.leader.election.enable", "false");
        }
        if (!Files.exists(logDir.resolve("meta.properties"))) {
            format(
                    logDir,
                    props,
                    node.clusterId() != null
                            ? node.clusterId()
                            : Uuid.randomUuid().toString());
        }
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
        server.startup();
        return new EmbeddedKafkaBroker(server, host + ":" + node.port());
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }

    private static void format(Path logDir, Properties props, String clusterId) throws IOException {
        Path config = Files.createTempFile("proofline-kraft", ".properties");
        try {
            try (Writer out = Files.newBufferedWriter(config)) {
                props.store(out, "proofline embedded broker");
            }
            ByteArrayOutputStream output = new ByteArrayOutputStream();
            int code = StorageTool.execute(
                    new String[] {"format", "-t", clusterId, "-c", config.toString()},
                    new PrintStream(output, true, StandardCharsets.UTF_8));
            if (code != 0) {
                throw new IOException("formatting " + logDir + " failed: "
                        + output.toString(StandardCharsets.UTF_8).trim());
            }
        } finally {
            Files.deleteIfExists(config);
        }
    }

    public static int freePort(String host) throws IOException {
        return freePorts(host, 1)[0];
    }

    /**
     * {@code count} different free ports. All are held open while they are chosen: ports picked one
     * after another can repeat (the system may hand out a port just closed again), and a broker
     * refuses a listener and a controller on the same port.
     */
    public static int[] freePorts(String host, int count) throws IOException {
        InetAddress address = InetAddress.getByName(host);
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0, 1, address);
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
    }
}
