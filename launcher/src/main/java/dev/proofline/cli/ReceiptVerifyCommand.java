package dev.proofline.cli;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.CanonicalWriter;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.StrictJson;
import dev.proofline.attestor.TrustedKeys;
import dev.proofline.attestor.VerificationOutcome;
import dev.proofline.client.AgentCardKeys;
import dev.proofline.client.ProoflineException;
import dev.proofline.tlog.Checkpoint;
import dev.proofline.tlog.InclusionProof;
import dev.proofline.tlog.MerkleHashes;
import dev.proofline.tlog.NoteVerifier;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * {@code proofline receipt-verify RECEIPT.json|- (--public-key BASE64 | --agent-card URL)
 * [--context verify|score] [--request REQUEST.json]}: prints {@code valid} (exit 0) or
 * {@code invalid: <reason>} (exit 1). With {@code --proof FILE} (a tlog-proof from
 * {@code GET /receipts/{id}/proof}) it also checks the receipt is in the deployment's transparency
 * log, against a checkpoint signed with the log key ({@code --log-key}, or the agent-card's). With {@code --agent-card} the keys are the ones a deployment
 * publishes at URL/.well-known/agent-card.json, fetched once; the check itself is offline.
 */
final class ReceiptVerifyCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Args args = new Args(words, Set.of("public-key", "agent-card", "context", "request", "proof", "log-key"));
        String file = args.positional(0, "RECEIPT.json or -");
        args.expectPositionals(1);
        String key = args.option("public-key");
        String agentCard = args.option("agent-card");
        if ((key == null) == (agentCard == null)) {
            throw new UsageException("give --public-key BASE64 (see: proofline key public) or --agent-card URL");
        }
        byte[] raw = file.equals("-") ? System.in.readAllBytes() : Files.readAllBytes(Paths.get(file));
        JsonNode receipt = StrictJson.parse(raw);
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
        } catch (IllegalStateException | ProoflineException e) {
            err.println("proofline receipt-verify: " + e.getMessage()); // the agent-card could not be read
            return 2;
        }
        VerificationOutcome outcome = new ReceiptVerifier(trusted).verifySignature(receipt, context);
        if (outcome.valid() && args.option("request") != null) {
            outcome = ReceiptVerifier.compareHashes(receipt, StrictJson.parse(Paths.get(args.option("request"))));
        }
        if (!outcome.valid() || args.option("proof") == null) {
            out.println(outcome);
            return outcome.valid() ? 0 : 1;
        }
        String logKey = args.option("log-key");
        if (logKey == null && agentCard != null) {
            logKey = AgentCardKeys.of(agentCard).transparencyLogKey().orElse(null);
        }
        if (logKey == null) {
            throw new UsageException("--proof needs the log's key: --log-key VKEY, or an --agent-card that names it");
        }
        NoteVerifier log;
        try {
            log = NoteVerifier.parse(logKey);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--log-key: " + e.getMessage());
        }
        try {
            InclusionProof proof =
                    InclusionProof.parse(Files.readString(Paths.get(args.option("proof")), StandardCharsets.UTF_8));
            Checkpoint checkpoint = proof.verify(entry(raw, receipt, proof, log), log);
            out.println(outcome);
            out.println("in the transparency log " + checkpoint.origin() + " at index " + proof.index()
                    + ", proved against its signed checkpoint of size " + checkpoint.size());
            return 0;
        } catch (IllegalArgumentException e) {
            out.println("invalid: not_in_log: " + e.getMessage());
            return 1;
        }
    }

    /**
     * The receipt's log entry: the SHA-256 of its bytes as the deployment serves them. A receipt saved
     * pretty-printed or with a final newline is still found: its compact form in the order it was
     * signed is exactly what the deployment serves.
     */
    private static byte[] entry(byte[] raw, JsonNode receipt, InclusionProof proof, NoteVerifier log) {
        byte[] asSaved = MerkleHashes.sha256(raw);
        try {
            proof.verify(asSaved, log);
            return asSaved;
        } catch (IllegalArgumentException e) {
            return MerkleHashes.sha256(CanonicalWriter.compactInTreeOrder(receipt));
        }
    }
}
