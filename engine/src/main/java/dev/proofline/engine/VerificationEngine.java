package dev.proofline.engine;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.Attestor;
import dev.proofline.contract.ErrorDocument;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

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
    public ObjectNode verify(VerificationRequest request, UUID verificationId, Instant verifiedAt) {
        return sign(evaluate(request, verificationId, verifiedAt));
    }

    /** Runs every check and lays out the unsigned receipt body. */
    public ObjectNode evaluate(VerificationRequest request, UUID verificationId, Instant verifiedAt) {
        return evaluate(request, verificationId, verifiedAt, Scoring.COUNTED);
    }

    private ObjectNode evaluate(VerificationRequest request, UUID verificationId, Instant verifiedAt, Scoring scoring) {
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

    /** Signs a receipt body with the verification context; the timestamp is its {@code verified_at}. */
    public ObjectNode sign(ObjectNode receipt) {
        return attestor.attest(
                receipt, AttestationContext.VERIFY, receipt.get("verified_at").asString());
    }
}
