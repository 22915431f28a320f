package dev.proofline.query.payment;

import dev.proofline.attestor.StrictJson;
import dev.proofline.query.Answer;
import dev.proofline.query.access.RequestCaller;
import dev.proofline.query.verify.Admission;
import java.util.Optional;

/**
 * How a verification is metered, for REST and MCP alike: the free allowance first; once it is used
 * up, x402 payment where a facilitator is configured, else 429 {@code free_allowance_exhausted}.
 */
public final class Metering {
    private final FreeAllowance allowance;
    private final Optional<X402Payments> payments;

    public Metering(FreeAllowance allowance, Optional<X402Payments> payments) {
        this.allowance = allowance;
        this.payments = payments;
    }

    public FreeAllowance allowance() {
        return allowance;
    }

    public Optional<X402Payments> payments() {
        return payments;
    }

    /** The admission of one verification by this caller, paying with {@code offer} if it must. */
    public Admission verification(RequestCaller caller, PaymentOffer offer, String resourceUrl) {
        return allowance.admission(caller, () -> {
            if (payments.isEmpty()) {
                return new Admission.Decision.Refuse(allowance.exhausted(caller));
            }
            try {
                return payments.get().decide(caller, offer, resourceUrl);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Admission.Decision.Refuse(Answer.notReady());
            }
        });
    }

    /**
     * A signed score, charged at {@code payment.price.score} when that is set and payment is on; an
     * answer without a score ({@code no_data}, a {@code test-} id) and any error stay free.
     */
    public Answer score(Answer score, RequestCaller caller, PaymentOffer offer, String resourceUrl) {
        if (payments.isEmpty()
                || payments.get().terms().priceScore() == 0
                || score.status() != 200
                || StrictJson.parse(score.json()).has("reason")) {
            return score;
        }
        try {
            Admission.Decision decision = payments.get()
                    .decide(caller, offer, resourceUrl, payments.get().score());
            return decision instanceof Admission.Decision.Refuse refuse
                    ? refuse.answer()
                    : ((Admission.Decision.Proceed) decision).finish().apply(score);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Answer.notReady();
        }
    }

    /**
     * An empty POST is x402's discovery probe: where payment is taken it gets the 402 with the
     * terms; without payment it is an ordinary invalid request (empty answer here).
     */
    public Optional<Answer> probe(RequestCaller caller, String resourceUrl) {
        return payments.map(p -> p.paymentRequired(caller, resourceUrl));
    }
}
