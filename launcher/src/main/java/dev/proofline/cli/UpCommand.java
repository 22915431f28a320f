package dev.proofline.cli;

import dev.proofline.launcher.ProoflineConfig;
import dev.proofline.launcher.ProoflineNode;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code proofline up [--config FILE] [--data-dir DIR] [--kafka-port N] [--http-port N]
 * [--bootstrap-servers HOST:PORT] [--<setting> VALUE]...}: runs Proofline until Ctrl-C or SIGTERM.
 */
final class UpCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            if (!word.startsWith("--") || i + 1 >= words.size()) {
                throw new UsageException(
                        word.startsWith("--") ? word + " needs a value" : "unexpected argument '" + word + "'");
            }
            flags.put(word.substring(2), words.get(++i));
        }
        ProoflineConfig config;
        try {
            config = ProoflineConfig.load(flags, System.getenv());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        ProoflineNode node;
        try {
            node = ProoflineNode.start(config, Workspace.dataDir(new Args(List.of(), java.util.Set.of())));
        } catch (IllegalStateException | IllegalArgumentException e) {
            // A setting the node refuses once it reads them all (a processing exception handler that
            // would skip records, a public.url with no host): said in a line, not a stack trace.
            err.println("proofline up: " + e.getMessage());
            return 1;
        }
        UntilStopped.await(node, "proofline-shutdown", () -> {
            node.newOperatorToken().ifPresent(token -> {
                // Shown on a terminal only: where stdout is not one (a container, a service manager, a
                // pipe), it is a log, and a secret must never be in a log. The file has it either way.
                if (Terminal.isStdout()) {
                    out.println(
                            "Operator token (shown once; also kept in " + node.operatorTokenFile() + ", mode 0600):");
                    out.println(token);
                } else {
                    out.println("Operator token kept in " + node.operatorTokenFile()
                            + " (mode 0600); not printed, since this output is not a terminal");
                }
            });
            out.println(node.readyLine());
            out.flush();
        });
        return 0;
    }
}
