package dev.proofline.cli;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.StrictJson;
import dev.proofline.attestor.TrustedKeys;
import dev.proofline.attestor.VerificationOutcome;
import java.io.PrintStream;
import java.nio.file.Paths;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * {@code proofline receipt-verify RECEIPT.json --public-key BASE64 [--context verify|score]
 * [--request REQUEST.json]}: prints {@code valid} (exit 0) or {@code invalid: <reason>} (exit 1).
 */
final class ReceiptVerifyCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Args args = new Args(words, Set.of("public-key", "context", "request"));
        String file = args.positional(0, "RECEIPT.json");
        args.expectPositionals(1);
        String key = args.option("public-key");
        if (key == null) {
            throw new UsageException("--public-key BASE64 is required (see: proofline key public)");
        }
        TrustedKeys trusted;
        AttestationContext context;
        try {
            trusted = TrustedKeys.ofAnyVersion(Base64.getDecoder().decode(key));
            context = AttestationContext.parse(args.option("context", "verify"));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        JsonNode receipt = StrictJson.parse(Paths.get(file));
        VerificationOutcome outcome = new ReceiptVerifier(trusted).verifySignature(receipt, context);
        if (outcome.valid() && args.option("request") != null) {
            outcome = ReceiptVerifier.compareHashes(receipt, StrictJson.parse(Paths.get(args.option("request"))));
        }
        out.println(outcome);
        return outcome.valid() ? 0 : 1;
    }
}
