package dev.proofline.cli;

import dev.proofline.contract.Topics;
import dev.proofline.launcher.Progress;
import dev.proofline.load.LoadGenerator;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * {@code proofline load [--rate N] [--duration S] [--agents K] [--fail-ratio R] [--seed N]
 * [--topic T] [--bootstrap-servers HOST:PORT]}: publishes invoice requests at a steady rate, some
 * deliberately wrong, with a progress line, until the duration is over ({@code --duration 0}: until
 * Ctrl-C). Exit 1 if the broker refused any request.
 */
final class LoadCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Args args = new Args(
                words, Set.of("rate", "duration", "agents", "fail-ratio", "seed", "topic", "bootstrap-servers"));
        args.expectPositionals(0);
        LoadGenerator.Plan plan;
        try {
            plan = new LoadGenerator.Plan(
                    Integer.parseInt(args.option("rate", "100")),
                    Duration.ofSeconds(Long.parseLong(args.option("duration", "60"))),
                    Integer.parseInt(args.option("agents", "8")),
                    Double.parseDouble(args.option("fail-ratio", "0.2")),
                    Long.parseLong(args.option("seed", Long.toString(System.currentTimeMillis()))),
                    args.option("topic", Topics.DEFAULT_INPUT));
        } catch (NumberFormatException e) {
            throw new UsageException("--rate, --duration, --agents, --fail-ratio and --seed take numbers");
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        String bootstrap = args.option("bootstrap-servers", "127.0.0.1:9092");
        try (LoadGenerator load = newGenerator(bootstrap, plan)) {
            out.printf(
                    "load: %,d requests/s for %s to %s on %s; %d agents, %.0f%% deliberately wrong on average, seed %d%n",
                    plan.ratePerSecond(),
                    plan.duration().isZero()
                            ? "ever (Ctrl-C stops)"
                            : plan.duration().toSeconds() + " s",
                    plan.topic(),
                    bootstrap,
                    plan.agents(),
                    100 * plan.failRatio(),
                    plan.seed());
            Thread stopper = new Thread(load::stop, "proofline-load-stop");
            Runtime.getRuntime().addShutdownHook(stopper);
            Thread runner = new Thread(load::run, "proofline-load");
            long start = System.nanoTime();
            runner.start();
            Progress progress = new Progress(out);
            while (runner.isAlive()) {
                runner.join(250);
                progress.update(line(load.counts(), plan, start));
            }
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running; the summary still prints
            }
            LoadGenerator.Counts c = load.counts();
            progress.done(String.format(
                    "sent %,d requests (%,d deliberately wrong) in %.1f s: %,.0f/s; broker acknowledged %,d, refused %,d",
                    c.sent(),
                    c.defective(),
                    seconds(start),
                    c.sent() / Math.max(seconds(start), 1e-3),
                    c.acknowledged(),
                    c.failedSends()));
            return c.failedSends() > 0 ? 1 : 0;
        }
    }

    private static LoadGenerator newGenerator(String bootstrap, LoadGenerator.Plan plan) {
        try {
            return new LoadGenerator(bootstrap, plan);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static String line(LoadGenerator.Counts c, LoadGenerator.Plan plan, long start) {
        double elapsed = seconds(start);
        String of = plan.duration().isZero()
                ? ""
                : String.format(" / %d s", plan.duration().toSeconds());
        return String.format(
                "sent %,d (%,d wrong)  %,.0f/s  acknowledged %,d  %.0f s%s",
                c.sent(), c.defective(), c.sent() / Math.max(elapsed, 1e-3), c.acknowledged(), elapsed, of);
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }
}
