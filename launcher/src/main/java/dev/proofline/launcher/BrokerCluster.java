package dev.proofline.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.Uuid;

/**
 * A KRaft cluster of real Kafka brokers, each its own JVM on loopback (so one can be killed for
 * real), every node broker and controller, all voters. Ports and the cluster id are fixed at
 * creation, so a node stopped or killed is restarted as the same node on the same log directory.
 */
public final class BrokerCluster implements AutoCloseable {
    /** What a node prints once it serves clients. */
    public static final String NODE_READY = "Kafka node ready: ";

    private final Path dataDir;
    private final Path jar;
    private final List<EmbeddedKafkaBroker.Node> nodes;
    private final Process[] processes;

    private BrokerCluster(Path dataDir, Path jar, List<EmbeddedKafkaBroker.Node> nodes) {
        this.dataDir = dataDir;
        this.jar = jar;
        this.nodes = nodes;
        this.processes = new Process[nodes.size()];
    }

    /** Starts {@code size} nodes at once (each waits for a controller majority) and returns when all serve. */
    public static BrokerCluster start(Path dataDir, String host, int size) throws Exception {
        return start(dataDir, host, size, runningJar());
    }

    /**
     * The same, with the nodes run from {@code jar} (the shaded Proofline jar). A node that does not
     * start the first time (a port chosen free may be taken before the node binds it: the ports
     * come from the range outgoing connections use too) is not the end: the cluster starts once
     * more, on other ports, in fresh node directories.
     */
    public static BrokerCluster start(Path dataDir, String host, int size, Path jar) throws Exception {
        try {
            return startOnce(dataDir, host, size, jar);
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof NodeDidNotStart first)) {
                throw e;
            }
            org.slf4j.LoggerFactory.getLogger(BrokerCluster.class)
                    .warn("{}; starting the cluster again on other ports", first.getMessage());
            for (int node = 1; node <= size; node++) {
                deleteTree(dataDir.resolve("node-" + node));
            }
            return startOnce(dataDir, host, size, jar);
        }
    }

    /** A node's process ended, or said something else, before it said it serves. */
    static final class NodeDidNotStart extends IllegalStateException {
        NodeDidNotStart(String message) {
            super(message);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!java.nio.file.Files.exists(dir)) {
            return;
        }
        try (java.util.stream.Stream<Path> paths = java.nio.file.Files.walk(dir)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                java.nio.file.Files.deleteIfExists(path);
            }
        }
    }

    /** The last lines of a node's log, for the message that says it did not start. */
    private static String tail(Path log) {
        try {
            List<String> lines = java.nio.file.Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(no log)";
        }
    }

    private static BrokerCluster startOnce(Path dataDir, String host, int size, Path jar) throws Exception {
        java.nio.file.Files.createDirectories(dataDir);
        List<Integer> ports = Arrays.stream(EmbeddedKafkaBroker.freePorts(host, 2 * size))
                .boxed()
                .toList();
        String voters = IntStream.range(0, size)
                .mapToObj(i -> (i + 1) + "@" + host + ":" + ports.get(size + i))
                .collect(Collectors.joining(","));
        String clusterId = Uuid.randomUuid().toString();
        List<EmbeddedKafkaBroker.Node> nodes = IntStream.range(0, size)
                .mapToObj(i -> new EmbeddedKafkaBroker.Node(
                        i + 1, host, ports.get(i), ports.get(size + i), voters, clusterId, size))
                .toList();
        BrokerCluster cluster = new BrokerCluster(dataDir, jar, nodes);
        try {
            List<CompletableFuture<Void>> starting = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                starting.add(cluster.startAsync(i));
            }
            for (CompletableFuture<Void> node : starting) {
                node.get(180, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    public String bootstrapServers() {
        return nodes.stream().map(n -> n.host() + ":" + n.port()).collect(Collectors.joining(","));
    }

    public int size() {
        return nodes.size();
    }

    /** The node with this Kafka node id (1-based), as the cluster's metadata names it. */
    public int indexOfNodeId(int nodeId) {
        return nodeId - 1;
    }

    /** Whether the node's process is up (started and neither stopped nor killed since). */
    public boolean isRunning(int index) {
        Process p = processes[index];
        return p != null && p.isAlive();
    }

    /** SIGKILL: no shutdown, no flush. */
    public void kill(int index) throws InterruptedException {
        Process p = processes[index];
        if (p != null) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** SIGTERM: a controlled shutdown, leadership handed over first. */
    public void stop(int index) throws InterruptedException {
        Process p = processes[index];
        if (p != null) {
            p.destroy();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    /** Starts a stopped or killed node again, as itself; returns once it serves clients. */
    public void restart(int index) throws Exception {
        startAsync(index).get(180, TimeUnit.SECONDS);
    }

    private CompletableFuture<Void> startAsync(int index) throws IOException {
        EmbeddedKafkaBroker.Node node = nodes.get(index);
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m",
                "-XX:+UseSerialGC",
                "-cp",
                jar.toString(),
                "dev.proofline.cli.ProoflineCli",
                "broker-node",
                "--data-dir",
                dataDir.resolve("node-" + node.nodeId()).toString(),
                "--node-id",
                Integer.toString(node.nodeId()),
                "--host",
                node.host(),
                "--kafka-port",
                Integer.toString(node.port()),
                "--controller-port",
                Integer.toString(node.controllerPort()),
                "--voters",
                node.voters(),
                "--cluster-id",
                node.clusterId(),
                "--cluster-size",
                Integer.toString(node.clusterSize()));
        Process process = new ProcessBuilder(command)
                .redirectError(dataDir.resolve("node-" + node.nodeId() + ".log").toFile())
                .redirectErrorStream(false)
                .start();
        processes[index] = process;
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        return CompletableFuture.runAsync(() -> {
            try {
                String line = out.readLine();
                if (line == null || !line.startsWith(NODE_READY)) {
                    Path log = dataDir.resolve("node-" + node.nodeId() + ".log");
                    throw new NodeDidNotStart(
                            "Kafka node " + node.nodeId() + " did not start (" + log + ": " + tail(log) + ")");
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** The jar (or classes directory) this class runs from: the nodes run the same code. */
    private static Path runningJar() {
        try {
            return Path.of(BrokerCluster.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (Exception e) {
            throw new IllegalStateException("cannot find the Proofline jar", e);
        }
    }

    /**
     * Stops every node at once. The last nodes standing cannot hand leadership over without a
     * controller majority and would wait for one: after 10 s they are killed, which Kafka
     * recovers from on the next start like any crash.
     */
    @Override
    public void close() {
        for (Process p : processes) {
            if (p != null) {
                p.destroy();
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (Process p : processes) {
            if (p == null) {
                continue;
            }
            try {
                if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(30, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
