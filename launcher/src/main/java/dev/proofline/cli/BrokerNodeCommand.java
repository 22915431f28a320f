package dev.proofline.cli;

import dev.proofline.launcher.BrokerCluster;
import dev.proofline.launcher.EmbeddedKafkaBroker;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code proofline broker-node ...}: one node of a multi-broker cluster, started by
 * {@code broker --brokers N} (and by the cluster tests) in a JVM of its own, so that it can be killed
 * alone. Not for people: its flags are the node's place in the cluster.
 */
final class BrokerNodeCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Args args = new Args(
                words,
                Set.of(
                        "data-dir",
                        "node-id",
                        "host",
                        "kafka-port",
                        "controller-port",
                        "voters",
                        "cluster-id",
                        "cluster-size"));
        args.expectPositionals(0);
        EmbeddedKafkaBroker.Node node = new EmbeddedKafkaBroker.Node(
                number(args, "node-id"),
                args.option("host", "127.0.0.1"),
                number(args, "kafka-port"),
                number(args, "controller-port"),
                required(args, "voters"),
                required(args, "cluster-id"),
                number(args, "cluster-size"));
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(Path.of(required(args, "data-dir")), node);
        UntilStopped.await(broker, "proofline-broker-node-shutdown", () -> {
            out.println(BrokerCluster.NODE_READY + broker.bootstrapServers());
            out.flush();
        });
        return 0;
    }

    private static String required(Args args, String name) {
        String value = args.option(name);
        if (value == null) {
            throw new UsageException("--" + name + " is required");
        }
        return value;
    }

    private static int number(Args args, String name) {
        try {
            return Integer.parseInt(required(args, name));
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " takes a number");
        }
    }
}
