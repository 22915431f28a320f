package dev.proofline.cli;

import java.io.PrintStream;
import java.util.List;

/** One {@code proofline} subcommand. Returns the process exit code. */
interface Command {
    int run(List<String> words, PrintStream out, PrintStream err) throws Exception;
}
