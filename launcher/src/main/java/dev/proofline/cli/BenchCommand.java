package dev.proofline.cli;

import dev.proofline.launcher.PipelineBench;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * {@code proofline bench [--requests N] [--threads N] [--only PHASES] [--agents N] [--agent-curve N,N,...]
 * [--bootstrap-servers HOST:PORT]}: end-to-end
 * throughput and latency on the embedded broker, beside a raw Kafka pass-through and bare signing.
 */
final class BenchCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Args args = new Args(
                words, Set.of("requests", "threads", "bootstrap-servers", "request", "only", "agents", "agent-curve"));
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
                    "--only takes a comma-separated list of passthrough, pipeline, preloaded, rest, reads, sizes,"
                            + " instances, agents");
        }
        int agents = positiveInt(args.option("agents", "10000"), "--agents");
        int[] agentCurve = Arrays.stream(
                        args.option("agent-curve", "50,10000,1000000").split(","))
                .mapToInt(n -> positiveInt(n.trim(), "--agent-curve"))
                .sorted()
                .toArray();
        PipelineBench.run(
                out, template, requests, threads, args.option("bootstrap-servers"), phases, agents, agentCurve);
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
