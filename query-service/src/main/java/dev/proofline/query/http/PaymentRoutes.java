package dev.proofline.query.http;

import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ErrorCode;
import dev.proofline.query.payment.Metering;
import dev.proofline.query.payment.X402;
import io.javalin.config.JavalinConfig;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /.well-known/x402}: what is paid here and how ({@code docs/payments.md}): x402 version
 * 2 and, per paid route, its method, path, description and the {@code accepts} list a 402 offers.
 * Without a facilitator, payment is off and the list is empty.
 */
public final class PaymentRoutes implements RouteGroup {
    /** Every code a payment can be refused with, as {@code /llms.txt} lists them. */
    static final List<ErrorCode> PAYMENT_ERRORS = List.of(
            ErrorCode.FREE_ALLOWANCE_EXHAUSTED,
            ErrorCode.FREE_TRIAL_EXHAUSTED,
            ErrorCode.PAYMENT_MALFORMED,
            ErrorCode.PAYMENT_INVALID,
            ErrorCode.PAYMENT_REPLAYED,
            ErrorCode.PAYMENT_SETTLEMENT_FAILED,
            ErrorCode.PAYMENT_UNAVAILABLE);

    private final Metering metering;
    private final String publicUrl;

    public PaymentRoutes(Metering metering, String publicUrl) {
        this.metering = metering;
        this.publicUrl = publicUrl;
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.routes.get(
                "/.well-known/x402", ctx -> Responses.json(ctx, document().toString()));
    }

    ObjectNode document() {
        return metering.payments()
                .map(p -> p.wellKnown(publicUrl, publicUrl + "/mcp"))
                .orElseGet(() -> {
                    ObjectNode off = StrictJson.NODES.objectNode();
                    off.put("x402Version", X402.VERSION);
                    off.putArray("resources");
                    off.put("note", "payment is off on this deployment: past the free allowance the answer is 429");
                    return off;
                });
    }

    /** The sections {@code /llms.txt} gains: the allowance's live numbers and every payment error. */
    public String llmsSections() {
        StringBuilder text = new StringBuilder("\n## Free allowance\n\n")
                .append(metering.allowance().describe())
                .append(' ')
                .append(
                        metering.payments().isPresent()
                                ? "Past it, POST /verify/schema answers 402 with Payment-Required (x402 version 2; terms at"
                                        + " /.well-known/x402); pay and send the request again with Payment-Signature. Over MCP"
                                        + " the payment rides in _meta x402/payment."
                                : "Past it the answer is 429 free_allowance_exhausted with Retry-After until the reset;"
                                        + " this deployment takes no payment.")
                .append("\n\n## Payment errors\n\n");
        for (ErrorCode code : PAYMENT_ERRORS) {
            text.append("- ")
                    .append(code.code())
                    .append(" (")
                    .append(code.status())
                    .append("): ")
                    .append(code.description())
                    .append('\n');
        }
        return text.toString();
    }
}
