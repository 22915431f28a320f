package dev.proofline.cli;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.StrictJson;
import dev.proofline.attestor.TrustedKeys;
import dev.proofline.attestor.VerificationOutcome;
import dev.proofline.client.AgentCardKeys;
import java.io.PrintStream;
import java.nio.file.Paths;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * {@code proofline receipt-verify RECEIPT.json|- (--public-key BASE64 | --agent-card URL)
 * [--context verify|score] [--request REQUEST.json]}: prints {@code valid} (exit 0) or
 * {@code invalid: <reason>} (exit 1). With {@code --agent-card} the keys are the ones a deployment
 * publishes at URL/.well-known/agent-card.json, fetched once; the check itself is offline.
 */
final class ReceiptVerifyCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Args args = new Args(words, Set.of("public-key", "agent-card", "context", "request"));
        String file = args.positional(0, "RECEIPT.json or -");
        args.expectPositionals(1);
        String key = args.option("public-key");
        String agentCard = args.option("agent-card");
        if ((key == null) == (agentCard == null)) {
            throw new UsageException("give --public-key BASE64 (see: proofline key public) or --agent-card URL");
        }
        JsonNode receipt = file.equals("-") ? StrictJson.parse(System.in) : StrictJson.parse(Paths.get(file));
        TrustedKeys trusted;
        AttestationContext context;
        try {
            trusted = key != null
                    ? TrustedKeys.ofAnyVersion(Base64.getDecoder().decode(key))
                    : AgentCardKeys.of(agentCard)
                            .forVersion(receipt.path("attestation")
                                    .path("key_version")
                                    .asString(""));
            context = AttestationContext.parse(args.option("context", "verify"));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        } catch (IllegalStateException e) {
            err.println("proofline receipt-verify: " + e.getMessage()); // the agent-card could not be read
            return 2;
        }
        VerificationOutcome outcome = new ReceiptVerifier(trusted).verifySignature(receipt, context);
        if (outcome.valid() && args.option("request") != null) {
            outcome = ReceiptVerifier.compareHashes(receipt, StrictJson.parse(Paths.get(args.option("request"))));
        }
        out.println(outcome);
        return outcome.valid() ? 0 : 1;
    }
}
