package dev.proofline.query.payment;

import dev.proofline.access.PaymentClaims;
import dev.proofline.attestor.CanonicalJson;
import dev.proofline.attestor.Sha256;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ErrorCode;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.query.Answer;
import dev.proofline.query.access.RequestCaller;
import dev.proofline.query.verify.Admission;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Verifications paid with x402 version 2 once the free allowance is used up ({@code docs/payments.md}).
 * A payment is decoded (400 {@code payment_malformed}), matched against what was offered and checked
 * by the facilitator (402 {@code payment_invalid}; 503 {@code payment_unavailable} when it cannot
 * answer), claimed so that it is served once across every instance (402 {@code payment_replayed}),
 * and only settled once the pipeline has signed the receipt: a request that ends in an error, or a
 * pipeline that cannot answer, is never charged. A request refused (a dead letter) or never published
 * (503) also gives its claim back, so the same payment may be sent again; one whose receipt is late
 * (504) does not, since the receipt may still come. A settlement that fails withholds the receipt
 * (402 {@code payment_settlement_failed}).
 */
public final class X402Payments {
    private static final Logger LOG = LoggerFactory.getLogger(X402Payments.class);
    private static final String DESCRIPTION = "One verification: a signed receipt of the request in the body";

    /** What is paid for: a price, its description, and whether a free allowance came before it. */
    public record Priced(long amount, String description, boolean afterFreeTrial) {}

    private final PaymentTerms terms;
    private final Facilitator facilitator;
    private final PaymentClaims claims;
    private final FreeAllowance allowance;
    private final PaymentListener listener;
    private final Clock clock;

    public X402Payments(
            PaymentTerms terms,
            Facilitator facilitator,
            PaymentClaims claims,
            FreeAllowance allowance,
            PaymentListener listener,
            Clock clock) {
        this.clock = clock;
        this.terms = terms;
        this.facilitator = facilitator;
        this.claims = claims;
        this.allowance = allowance;
        this.listener = listener;
    }

    public PaymentTerms terms() {
        return terms;
    }

    /** The requirements a verification is offered at. */
    public ObjectNode verifyRequirements() {
        return terms.requirements(terms.priceVerify());
    }

    /** A verification past the free allowance. */
    public Priced verification() {
        return new Priced(terms.priceVerify(), DESCRIPTION, true);
    }

    /** A signed trust score, when {@code payment.price.score} is set (no free allowance). */
    public Priced score() {
        return new Priced(terms.priceScore(), "A signed trust score", false);
    }

    /** 402 with {@code Payment-Required}: no payment sent (or the x402 discovery probe, an empty POST). */
    public Answer paymentRequired(RequestCaller caller, String resourceUrl) {
        return paymentRequired(caller, resourceUrl, verification());
    }

    private Answer paymentRequired(RequestCaller caller, String resourceUrl, Priced priced) {
        return refusal(
                caller,
                resourceUrl,
                priced,
                ErrorCode.FREE_TRIAL_EXHAUSTED,
                priced.afterFreeTrial()
                        ? "This client's free checks for today are used up; pay as Payment-Required says and send"
                                + " the request again with Payment-Signature."
                        : priced.description() + " costs " + priced.amount() + " atomic units here; pay as"
                                + " Payment-Required says and send the request again with Payment-Signature.",
                overMcp(resourceUrl)
                        ? "Payment required: send the PaymentPayload in _meta[\"x402/payment\"]"
                        : "PAYMENT-SIGNATURE header is required");
    }

    /** MCP tools are priced as {@code mcp://tool/<name>} resources; REST routes by their URL. */
    private static boolean overMcp(String resourceUrl) {
        return resourceUrl.startsWith("mcp://");
    }

    /** The decision for a request whose caller has no free verification left. */
    public Admission.Decision decide(RequestCaller caller, PaymentOffer offer, String resourceUrl)
            throws InterruptedException {
        return decide(caller, offer, resourceUrl, verification());
    }

    /** The decision for something priced: no payment, a bad one, or one served once and settled after. */
    public Admission.Decision decide(RequestCaller caller, PaymentOffer offer, String resourceUrl, Priced priced)
            throws InterruptedException {
        if (offer instanceof PaymentOffer.None) {
            listener.refused(ErrorCode.FREE_TRIAL_EXHAUSTED.code());
            return new Admission.Decision.Refuse(paymentRequired(caller, resourceUrl, priced));
        }
        ObjectNode payload;
        try {
            payload = offer instanceof PaymentOffer.Header header
                    ? X402.decodePayload(header.base64())
                    : X402.checkPayload(((PaymentOffer.Mcp) offer).payload());
        } catch (IllegalArgumentException e) {
            String message = "The payment " + e.getMessage() + "; it must be an x402 version 2 PaymentPayload.";
            if (offer instanceof PaymentOffer.Mcp) {
                // The x402 MCP transport answers an invalid payment with PaymentRequired, as any refusal;
                // HTTP's answers a malformed header with a plain 400.
                return refuse(caller, resourceUrl, priced, ErrorCode.PAYMENT_MALFORMED, message);
            }
            listener.refused(ErrorCode.PAYMENT_MALFORMED.code());
            return new Admission.Decision.Refuse(
                    Answer.error(new ErrorDocument(ErrorCode.PAYMENT_MALFORMED, message, List.of())));
        }
        ObjectNode offered = terms.requirements(priced.amount());
        if (!matchesOffer(payload, offered)) {
            return refuse(
                    caller,
                    resourceUrl,
                    priced,
                    ErrorCode.PAYMENT_INVALID,
                    "The payment matches none of the"
                            + " requirements offered (x402 version 2, this scheme, network, asset, amount and payTo).");
        }
        if (expiresTooSoon(payload, clock.instant().getEpochSecond(), terms.minValiditySeconds())) {
            return refuseExpiringSoon(caller, resourceUrl, priced);
        }
        String digest = paymentIdentity(payload);
        if (claims.claimed(digest)) {
            return refuse(caller, resourceUrl, priced, ErrorCode.PAYMENT_REPLAYED, "This payment was already used.");
        }
        JsonNode verified;
        try {
            verified = facilitator.verify(payload, offered);
        } catch (Facilitator.Unavailable e) {
            LOG.warn("payment not checked: {}", e.getMessage());
            listener.refused(ErrorCode.PAYMENT_UNAVAILABLE.code());
            return new Admission.Decision.Refuse(Answer.error(new ErrorDocument(
                    ErrorCode.PAYMENT_UNAVAILABLE,
                    "The payment facilitator cannot be reached; nothing was charged.",
                    List.of())));
        }
        if (!verified.path("isValid").asBoolean(false)) {
            return refuse(
                    caller,
                    resourceUrl,
                    priced,
                    ErrorCode.PAYMENT_INVALID,
                    "The facilitator refused the payment: "
                            + verified.path("invalidReason").asString("no reason given") + ".");
        }
        Optional<PaymentClaims.Claim> claim;
        try {
            claim = claims.claim(digest, Duration.ofSeconds(10));
        } catch (IllegalStateException e) {
            LOG.warn("payment not claimed: {}", e.getMessage());
            return new Admission.Decision.Refuse(Answer.error(ErrorDocument.brokerUnavailable())); // nothing charged
        }
        if (claim.isEmpty()) {
            return refuse(caller, resourceUrl, priced, ErrorCode.PAYMENT_REPLAYED, "This payment was already used.");
        }
        // Checked again now: the facilitator's verify and the claim took time of the authorization's too.
        if (expiresTooSoon(payload, clock.instant().getEpochSecond(), terms.minValiditySeconds())) {
            return refuseExpiringSoon(caller, resourceUrl, priced);
        }
        listener.paid();
        return new Admission.Decision.Proceed(answer -> {
            if (answer.status() == 200) {
                // Over MCP a failed settlement is told as a payment requirement with the settlement in
                // it (the x402 MCP transport); over HTTP, Payment-Response alone says it.
                ObjectNode mcpTerms = offer instanceof PaymentOffer.Mcp
                        ? X402.paymentRequired("", resourceUrl, priced.description(), offered)
                        : null;
                return settle(payload, offered, priced, answer, mcpTerms);
            }
            if (answer.status() == 504) {
                // Not settled, so the receipt must not be had later either: its id is not given.
                return Answer.error(new ErrorDocument(
                        ErrorCode.RECEIPT_PENDING,
                        "The pipeline did not answer in time, so the payment was not settled and nothing was charged;"
                                + " send the request again with a new payment.",
                        List.of()));
            }
            if (!ErrorCode.INTERNAL_ERROR.code().equals(errorCode(answer))) {
                // Refused (a dead letter: nothing was signed) or most likely never published (503):
                // nothing was served or charged, so the payment is given back and the payer may send
                // it again (a retry after 503, a request mended after 422). internal_error is kept:
                // it says the request failed here, perhaps after it was verified.
                release(claim.get());
            }
            return answer;
        });
    }

    private static String errorCode(Answer answer) {
        try {
            return StrictJson.parse(answer.json()).path("code").asString("");
        } catch (RuntimeException notJson) {
            return "";
        }
    }

    /**
     * Gives a claimed payment back; if that fails (Kafka is where the release is written, and it may
     * be what failed), the payer signs a new one, as for any refusal. Bounded, as the caller waits.
     */
    private static void release(PaymentClaims.Claim claim) {
        try {
            claim.release(Duration.ofSeconds(2));
        } catch (IllegalStateException e) {
            LOG.warn("payment not released after a refusal: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The receipt exists: settle, and only then hand it over with {@code Payment-Response}. */
    private Answer settle(ObjectNode payload, ObjectNode offered, Priced priced, Answer receipt, ObjectNode mcpTerms) {
        JsonNode settlement;
        try {
            settlement = facilitator.settle(payload, offered);
        } catch (Facilitator.Unavailable e) {
            // The request may have reached the facilitator: say so, for the operator to reconcile.
            JsonNode authorization = payload.path("payload").path("authorization");
            LOG.warn(
                    "payment settlement unconfirmed, receipt withheld (payer {}, nonce {}): {}",
                    hexOrUnknown(authorization.path("from")),
                    hexOrUnknown(authorization.path("nonce")),
                    e.getMessage());
            return settlementFailed(unconfirmed(terms, payload), mcpTerms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return settlementFailed(unconfirmed(terms, payload), mcpTerms);
        }
        if (!settlement.path("success").asBoolean(false)) {
            LOG.warn(
                    "payment not settled, receipt withheld: {}",
                    settlement.path("errorReason").asString("no reason given"));
            return settlementFailed(settlement, mcpTerms);
        }
        String transaction = settlement.path("transaction").asString("");
        LOG.info(
                "payment settled: transaction {} on {} for {} atomic units",
                transaction,
                settlement.path("network").asString(terms.network()),
                priced.amount());
        listener.settled(transaction);
        // A paid answer is the payer's alone, even on a route whose answers are public (a score): no
        // shared cache may keep it, with its settlement, for callers who did not pay.
        return receipt.withHeader(X402.PAYMENT_RESPONSE, X402.encode(settlement))
                .withHeader("Cache-Control", "no-store");
    }

    /**
     * The SettlementResponse of a settlement the facilitator never confirmed (x402's
     * {@code unexpected_settle_error}): clients read Payment-Response on every failed settlement.
     */
    static ObjectNode unconfirmed(PaymentTerms terms, ObjectNode payload) {
        ObjectNode settlement = StrictJson.NODES
                .objectNode()
                .put("success", false)
                .put("errorReason", "unexpected_settle_error")
                .put("transaction", "")
                .put("network", terms.network());
        JsonNode payer = payload.path("payload").path("authorization").path("from");
        if (payer.isString()) {
            settlement.put("payer", payer.asString());
        }
        return settlement;
    }

    /**
     * The 402 of a settlement that failed: Payment-Response with the settlement, and over MCP the
     * terms again with the settlement's reason as their error ({@code mcpTerms}, null over HTTP).
     */
    private Answer settlementFailed(JsonNode settlement, ObjectNode mcpTerms) {
        listener.refused(ErrorCode.PAYMENT_SETTLEMENT_FAILED.code());
        Answer failed = Answer.error(new ErrorDocument(
                        ErrorCode.PAYMENT_SETTLEMENT_FAILED,
                        "The request was verified but the payment's settlement was not confirmed, so the receipt is"
                                + " withheld; if the facilitator settled it after all, the operator can reconcile it.",
                        List.of()))
                .withHeader(X402.PAYMENT_RESPONSE, X402.encode(settlement))
                .withHeader("Cache-Control", "no-store");
        if (mcpTerms == null) {
            return failed;
        }
        mcpTerms.put(
                "error",
                "Payment settlement failed: " + settlement.path("errorReason").asString("no reason given"));
        return failed.withHeader(X402.PAYMENT_REQUIRED, X402.encode(mcpTerms));
    }

    private Admission.Decision refuse(
            RequestCaller caller, String resourceUrl, Priced priced, ErrorCode code, String message) {
        listener.refused(code.code());
        return new Admission.Decision.Refuse(refusal(caller, resourceUrl, priced, code, message, message));
    }

    /** A 402: the error document (with free_trial after an allowance), and Payment-Required with the terms. */
    private Answer refusal(
            RequestCaller caller, String resourceUrl, Priced priced, ErrorCode code, String message, String x402Error) {
        ErrorDocument error = new ErrorDocument(code, message, List.of());
        if (priced.afterFreeTrial()) {
            error = error.with(allowance.freeTrialMember(caller, true));
        }
        ObjectNode required =
                X402.paymentRequired(x402Error, resourceUrl, priced.description(), terms.requirements(priced.amount()));
        return Answer.error(error).withHeader(X402.PAYMENT_REQUIRED, X402.encode(required));
    }

    private Admission.Decision refuseExpiringSoon(RequestCaller caller, String resourceUrl, Priced priced) {
        return refuse(
                caller,
                resourceUrl,
                priced,
                ErrorCode.PAYMENT_INVALID,
                "The payment's authorization expires too soon, or its validBefore is not Unix seconds as a decimal"
                        + " string: it is settled only after the receipt is signed, so it must stay valid at least "
                        + terms.minValiditySeconds()
                        + " more seconds (sign it with validBefore now + maxTimeoutSeconds, written in decimal).");
    }

    /**
     * Whether an EIP-3009 authorization's {@code validBefore} (Unix seconds: a decimal string, as
     * x402 clients write it, or a JSON integer) falls within {@code minValiditySeconds} of {@code
     * nowSeconds}, or is there but cannot be read as such. Any other form is refused too, not left to the
     * facilitator: the reference facilitator reads it with JavaScript's BigInt, which also takes
     * hex, padding and exponents, so an authorization written that way would pass it however soon
     * it expired, and be verified but never settled.
     */
    static boolean expiresTooSoon(ObjectNode payload, long nowSeconds, int minValiditySeconds) {
        JsonNode validBefore = payload.path("payload").path("authorization").path("validBefore");
        if (validBefore.isMissingNode()) {
            return false; // no EIP-3009 authorization to read: the facilitator refuses what it cannot settle
        }
        BigInteger seconds;
        if (validBefore.isIntegralNumber()) {
            seconds = validBefore.bigIntegerValue();
        } else if (validBefore.isString()
                && DECIMAL.matcher(validBefore.asString()).matches()) {
            seconds = new BigInteger(validBefore.asString());
        } else {
            return true;
        }
        return seconds.compareTo(BigInteger.valueOf(nowSeconds).add(BigInteger.valueOf(minValiditySeconds))) < 0;
    }

    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,78}");
    private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]{1,128}");

    /** A payer's address or nonce for the log: it came in the caller's header, so it is logged only as hex. */
    static String hexOrUnknown(JsonNode value) {
        String text = value.asString("");
        return HEX.matcher(text).matches() ? text : "?";
    }

    /**
     * What makes a payment one payment: for an EIP-3009 authorization, its network, asset, payer
     * and nonce (the chain accepts each nonce once), whatever else the JSON around them says; for
     * another scheme, the canonical payload.
     */
    static String paymentIdentity(ObjectNode payload) {
        JsonNode authorization = payload.path("payload").path("authorization");
        if (authorization.path("from").isString() && authorization.path("nonce").isString()) {
            JsonNode accepted = payload.path("accepted");
            return Sha256.hex((accepted.path("network").asString("") + "|"
                            + accepted.path("asset").asString("").toLowerCase(java.util.Locale.ROOT) + "|"
                            + authorization.get("from").asString().toLowerCase(java.util.Locale.ROOT) + "|"
                            + authorization.get("nonce").asString().toLowerCase(java.util.Locale.ROOT))
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return Sha256.hex(CanonicalJson.toCanonicalBytes(payload.get("payload")));
    }

    /** Whether a payload is x402 version 2 and accepted what was offered. */
    static boolean matchesOffer(ObjectNode payload, ObjectNode offered) {
        JsonNode version = payload.get("x402Version"); // integral (checkPayload), and may be any size
        return version.isInt() && version.intValue() == X402.VERSION && sameTerms(payload.get("accepted"), offered);
    }

    /**
     * Whether what the client accepted is what was offered: every field equal (numbers by value,
     * whatever their JSON form), {@code extra} holding at least what was offered.
     */
    static boolean sameTerms(JsonNode accepted, ObjectNode offered) {
        if (accepted == null || !accepted.isObject()) {
            return false;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = offered.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode theirs = accepted.get(field.getKey());
            if (field.getKey().equals("extra")) {
                if (theirs == null || !theirs.isObject()) {
                    return false;
                }
                for (Map.Entry<String, JsonNode> e : field.getValue().properties()) {
                    if (!e.getValue().equals(theirs.get(e.getKey()))) {
                        return false;
                    }
                }
            } else if (!sameValue(field.getValue(), theirs)) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameValue(JsonNode ours, JsonNode theirs) {
        if (theirs == null) {
            return false;
        }
        if (ours.isNumber() && theirs.isNumber()) {
            return ours.decimalValue().compareTo(theirs.decimalValue()) == 0;
        }
        return ours.equals(theirs);
    }

    /** For {@code /.well-known/x402}: the paid routes and what each offers. */
    public ObjectNode wellKnown(String baseUrl, String mcpUrl) {
        ObjectNode doc = StrictJson.NODES.objectNode();
        doc.put("x402Version", X402.VERSION);
        var resources = doc.putArray("resources");
        for (String path : List.of("/verify/schema", "/verify/deliverable")) {
            ObjectNode resource = resources.addObject();
            resource.put("method", "POST");
            resource.put("path", path);
            resource.put("url", baseUrl + path);
            resource.put("description", DESCRIPTION + " (after the free allowance)");
            resource.putArray("accepts").add(verifyRequirements());
        }
        ObjectNode mcp = resources.addObject();
        mcp.put("method", "POST");
        mcp.put("path", "/mcp");
        mcp.put("url", mcpUrl);
        mcp.put("tool", "verify_schema");
        mcp.put("description", DESCRIPTION + " over MCP (after the free allowance); pay in _meta x402/payment");
        mcp.putArray("accepts").add(verifyRequirements());
        if (terms.priceScore() > 0) {
            ObjectNode score = resources.addObject();
            score.put("method", "GET");
            score.put("path", "/score/{agent_id}");
            score.put("url", baseUrl + "/score/{agent_id}");
            score.put(
                    "description", "A signed trust score, when the agent has one (no_data and test- answers are free)");
            score.putArray("accepts").add(terms.requirements(terms.priceScore()));
        }
        return doc;
    }
}
