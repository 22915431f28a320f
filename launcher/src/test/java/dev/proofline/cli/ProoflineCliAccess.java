package dev.proofline.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Lets integration tests in other packages run the CLI in-process. */
public final class ProoflineCliAccess {
    private ProoflineCliAccess() {}

    public static int run(List<String> args, ByteArrayOutputStream out) {
        return ProoflineCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
    }
}
