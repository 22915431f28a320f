package dev.proofline.cli;

import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.StrictJson;
import dev.proofline.engine.Verdict;
import dev.proofline.engine.VerificationEngine;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** {@code proofline verify REQUEST.json [--key FILE] [--data-dir DIR]}: prints the signed receipt. */
final class VerifyCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Args args = new Args(words, Set.of("key", "data-dir"));
        String file = args.positional(0, "REQUEST.json");
        args.expectPositionals(1);
        VerificationEngine engine =
                new VerificationEngine(Workspace.engineSettings(), new Attestor(Workspace.keys(args)));
        Verdict verdict = engine.process(Files.readAllBytes(Paths.get(file)), UUID.randomUUID(), Instant.now());
        if (verdict instanceof Verdict.Refused refused) {
            err.println(StrictJson.pretty(refused.error().toJson()));
            return 2;
        }
        out.println(StrictJson.pretty(((Verdict.Signed) verdict).receipt().tree()));
        return 0;
    }
}
