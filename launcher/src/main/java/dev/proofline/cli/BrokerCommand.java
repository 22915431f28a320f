package dev.proofline.cli;

import dev.proofline.launcher.BrokerCluster;
import dev.proofline.launcher.EmbeddedKafkaBroker;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code proofline broker [--brokers N] [--data-dir DIR] [--host HOST] [--kafka-port N]}: only Kafka,
 * until Ctrl-C or SIGTERM, so several Proofline instances can share it without Docker
 * (scripts/scale-out.sh). One broker (the default) is the single-node broker {@code up} embeds, in
 * this JVM, its log under DIR/kafka; {@code --brokers 3} is a KRaft cluster of three real brokers,
 * each its own JVM with its own log directory under DIR/kafka-cluster, all controllers and voters.
 * Either way it prints one line, {@code Kafka broker ready: } and the bootstrap list.
 */
final class BrokerCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Args args = new Args(words, Set.of("data-dir", "host", "kafka-port", "brokers"));
        args.expectPositionals(0);
        Path dataDir = Workspace.dataDir(args);
        int brokers;
        try {
            brokers = Integer.parseInt(args.option("brokers", "1"));
        } catch (NumberFormatException e) {
            throw new UsageException("--brokers takes a number");
        }
        if (brokers < 1 || brokers > 9) {
            throw new UsageException("--brokers takes 1 to 9");
        }
        if (brokers > 1) {
            return cluster(dataDir.resolve("kafka-cluster"), args.option("host", "127.0.0.1"), brokers, out);
        }
        int port;
        try {
            port = Integer.parseInt(args.option("kafka-port", "9092"));
        } catch (NumberFormatException e) {
            throw new UsageException("--kafka-port takes a number");
        }
        EmbeddedKafkaBroker broker =
                EmbeddedKafkaBroker.start(dataDir.resolve("kafka"), args.option("host", "127.0.0.1"), port);
        UntilStopped.await(broker, "proofline-broker-shutdown", () -> {
            out.println("Kafka broker ready: " + broker.bootstrapServers());
            out.flush();
        });
        return 0;
    }

    private static int cluster(Path dir, String host, int brokers, PrintStream out) throws Exception {
        BrokerCluster cluster = BrokerCluster.start(dir, host, brokers);
        UntilStopped.await(cluster, "proofline-cluster-shutdown", () -> {
            out.println("Kafka broker ready: " + cluster.bootstrapServers());
            out.flush();
        });
        return 0;
    }
}
