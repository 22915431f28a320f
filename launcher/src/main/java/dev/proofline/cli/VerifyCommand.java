package dev.proofline.cli;

import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.StrictJson;
import dev.proofline.engine.ParseOutcome;
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
        ParseOutcome outcome = engine.parser().parse(Files.readAllBytes(Paths.get(file)));
        if (outcome instanceof ParseOutcome.Invalid invalid) {
            err.println(StrictJson.pretty(invalid.error().toJson()));
            return 2;
        }
        ParseOutcome.Valid valid = (ParseOutcome.Valid) outcome;
        out.println(StrictJson.pretty(engine.verify(valid.request(), UUID.randomUUID(), Instant.now())));
        return 0;
    }
}
