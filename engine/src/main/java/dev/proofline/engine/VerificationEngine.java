package dev.proofline.engine;

import dev.proofline.attestor.Attestation;
import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.CanonicalWriter;
import dev.proofline.contract.ErrorDocument;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * Proofline's verification engine: a valid request in, a signed receipt out. It is pure: the
 * verification id and time are given, so the same request, id and time give the same receipt, byte
 * for byte. Kafka, REST and the CLI all call it; it knows none of them.
 *
 * <p>Thread-safe: one engine serves every stream thread.
 */
public final class VerificationEngine {
    private final RequestParser parser;
    private final ReceiptAssembler assembler;
    private final Attestor attestor;
    private final long budgetSteps;

    public VerificationEngine(EngineSettings settings, Attestor attestor) {
        this.parser = new RequestParser(
                new SchemaCompiler(settings.schemaCacheSize(), settings.formatAssertion()), settings.maxRequestBytes());
        this.assembler = new ReceiptAssembler(settings);
        this.attestor = attestor;
        this.budgetSteps = settings.budgetSteps();
    }

    public RequestParser parser() {
        return parser;
    }

    /**
     * The one way from bytes to an answer: parse, check, sign. Nothing a request contains escapes
     * this method: an invalid request, one over the work budget, and any failure of the verifier on
     * it (a bug, or a library's {@link StackOverflowError} that the bounds above should already make
     * impossible) each become an error document, so a caller's record never stops its caller.
     */
    public Verdict process(byte[] body, UUID verificationId, Instant verifiedAt) {
        return process(body, verificationId, verifiedAt, Scoring.Policy.EVERY_RECEIPT);
    }

    /** The same, with a say on whether the receipt counts toward its agent's score. */
    public Verdict process(byte[] body, UUID verificationId, Instant verifiedAt, Scoring.Policy scoring) {
        return decide(() -> parser.parse(body), verificationId, verifiedAt, scoring);
    }

    /**
     * The same for a request already parsed as JSON (a replay that swapped its rules): every check
     * but the size of the body, which only bytes have.
     */
    public Verdict process(JsonNode request, UUID verificationId, Instant verifiedAt) {
        return decide(() -> parser.parse(request), verificationId, verifiedAt, Scoring.Policy.EVERY_RECEIPT);
    }

    private Verdict decide(
            Supplier<ParseOutcome> parse, UUID verificationId, Instant verifiedAt, Scoring.Policy scoring) {
        try {
            ParseOutcome outcome = parse.get();
            if (outcome instanceof ParseOutcome.Invalid invalid) {
                return new Verdict.Refused(invalid.error());
            }
            VerificationRequest request = ((ParseOutcome.Valid) outcome).request();
            return new Verdict.Signed(
                    sign(evaluate(request, verificationId, verifiedAt, scoring.forAgent(request.agentId()))));
        } catch (VerificationBudgetExceeded e) {
            return new Verdict.Refused(ErrorDocument.budgetExceeded(e.budgetSteps()));
        } catch (RuntimeException | StackOverflowError e) {
            return new Verdict.Refused(ErrorDocument.verificationFailed(), e);
        }
    }

    /**
     * Runs every check and signs the receipt; throws {@link VerificationBudgetExceeded} for a request
     * whose checks would take more steps than the budget.
     */
    public SignedReceipt verify(VerificationRequest request, UUID verificationId, Instant verifiedAt) {
        return sign(evaluate(request, verificationId, verifiedAt));
    }

    /** Runs every check and gathers what the receipt will say, unsigned. */
    public UnsignedReceipt evaluate(VerificationRequest request, UUID verificationId, Instant verifiedAt) {
        return evaluate(request, verificationId, verifiedAt, Scoring.COUNTED);
    }

    private UnsignedReceipt evaluate(
            VerificationRequest request, UUID verificationId, Instant verifiedAt, Scoring scoring) {
        WorkBudget budget = new WorkBudget(budgetSteps);
        SchemaChecks.Outcome schema =
                SchemaChecks.run(request.schema(), request.submittedOutput(), budget, request.strictContentCheck());
        CheckTally integrity = new CheckTally(budget);
        RuleChecks rules = new RuleChecks(request.submittedOutput(), request.enforceRules(), integrity, budget);
        request.rules().forEach(rules::run);
        request.bounds().forEach(rules::run);
        ContentChecks.exactNumbers(request.submittedOutput(), "$", integrity);
        if (request.strictContentCheck()) {
            ContentChecks.strict(request.submittedOutput(), schema, integrity);
        }
        return assembler.assemble(
                request,
                verificationId,
                ReceiptAssembler.timestamp(verifiedAt),
                attestor.keyVersion(),
                schema.tally(),
                integrity,
                scoring);
    }

    /**
     * Signs a receipt with the verification context, its timestamp the receipt's {@code verified_at}:
     * the RFC 8785 form is written into the signed message, then the published form with the
     * attestation. Neither is a tree.
     */
    public SignedReceipt sign(UnsignedReceipt receipt) {
        Attestation attestation = attestor.attest(
                AttestationContext.VERIFY,
                receipt.verifiedAt(),
                message -> ReceiptLayout.write(message, receipt, null));
        byte[] published = ReceiptLayout.write(CanonicalWriter.compact(4096), receipt, attestation)
                .toByteArray();
        return new SignedReceipt(receipt, attestation, published);
    }

    /** The receipt's RFC 8785 form, what its signature covers inside the signed message. */
    public static byte[] canonical(UnsignedReceipt receipt) {
        return ReceiptLayout.write(new CanonicalWriter(4096), receipt, null).toByteArray();
    }
}
