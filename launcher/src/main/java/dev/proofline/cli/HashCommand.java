package dev.proofline.cli;

import dev.proofline.attestor.CanonicalJson;
import dev.proofline.attestor.CanonicalRequest;
import dev.proofline.attestor.RequestHashes;
import dev.proofline.attestor.StrictJson;
import dev.proofline.engine.EngineSettings;
import dev.proofline.engine.ParseOutcome;
import dev.proofline.engine.RequestParser;
import dev.proofline.engine.SchemaCompiler;
import dev.proofline.engine.VerificationRequest;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/** {@code proofline hash REQUEST.json}: the four hashes, one per line, then the canonical request. */
final class HashCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Args args = new Args(words, Set.of());
        String file = args.positional(0, "REQUEST.json");
        args.expectPositionals(1);
        byte[] body = Files.readAllBytes(Paths.get(file));
        EngineSettings settings = EngineSettings.defaults();
        ParseOutcome outcome = new RequestParser(new SchemaCompiler(1), settings.maxRequestBytes()).parse(body);
        if (outcome instanceof ParseOutcome.Invalid invalid) {
            err.println(StrictJson.pretty(invalid.error().toJson()));
            return 2;
        }
        VerificationRequest request = ((ParseOutcome.Valid) outcome).request();
        RequestHashes hashes = request.hashes();
        for (String name : RequestHashes.NAMES) {
            out.println(name + " " + hashes.byName(name));
        }
        JsonNode parsed = StrictJson.parse(body);
        out.println("canonical_request " + CanonicalJson.toCanonicalString(CanonicalRequest.of(parsed)));
        return 0;
    }
}
