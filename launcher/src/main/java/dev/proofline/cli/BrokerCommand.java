package dev.proofline.cli;

import dev.proofline.launcher.EmbeddedKafkaBroker;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code proofline broker [--data-dir DIR] [--host HOST] [--kafka-port N]}: only the single-node
 * KRaft broker that {@code up} embeds, until Ctrl-C, so several Proofline instances can share one
 * broker without Docker (scripts/scale-out.sh). Its log is under DIR/kafka.
 */
final class BrokerCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Args args = new Args(words, Set.of("data-dir", "host", "kafka-port"));
        args.expectPositionals(0);
        Path dataDir = Workspace.dataDir(args);
        int port;
        try {
            port = Integer.parseInt(args.option("kafka-port", "9092"));
        } catch (NumberFormatException e) {
            throw new UsageException("--kafka-port takes a number");
        }
        EmbeddedKafkaBroker broker =
                EmbeddedKafkaBroker.start(dataDir.resolve("kafka"), args.option("host", "127.0.0.1"), port);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            broker.close();
                            stopped.countDown();
                        },
                        "proofline-broker-shutdown"));
        out.println("Kafka broker ready: " + broker.bootstrapServers());
        out.flush();
        stopped.await();
        return 0;
    }
}
