package dev.proofline.cli;

import dev.proofline.launcher.PipelineBench;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code proofline bench [--requests N] [--threads N] [--only PHASES] [--agents N]
 * [--bootstrap-servers HOST:PORT]}: end-to-end
 * throughput and latency on the embedded broker, beside a raw Kafka pass-through and bare signing.
 */
final class BenchCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Args args = new Args(words, Set.of("requests", "threads", "bootstrap-servers", "request", "only", "agents"));
        args.expectPositionals(0);
        int requests = positiveInt(args.option("requests", "50000"), "--requests");
        int threads = positiveInt(args.option("threads", "2"), "--threads");
        String home = System.getenv(Workspace.HOME_ENV);
        Path template = Path.of(
                args.option("request", (home != null ? home + "/" : "") + "conformance/requests/invoice-draft.json"));
        Set<PipelineBench.Phase> phases;
        try {
            phases = PipelineBench.Phase.parse(args.option("only", "passthrough,pipeline,preloaded,rest,reads"));
        } catch (IllegalArgumentException e) {
            throw new UsageException(
                    "--only takes a comma-separated list of passthrough, pipeline, preloaded, rest, reads, sizes, instances");
        }
        int agents = positiveInt(args.option("agents", "10000"), "--agents");
        PipelineBench.run(out, template, requests, threads, args.option("bootstrap-servers"), phases, agents);
        return 0;
    }

    private static int positiveInt(String text, String flag) {
        try {
            int value = Integer.parseInt(text);
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // fall through to the usage error
        }
        throw new UsageException(flag + " needs a positive whole number");
    }
}
