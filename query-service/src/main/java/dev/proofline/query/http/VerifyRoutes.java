package dev.proofline.query.http;

import dev.proofline.query.Answer;
import dev.proofline.query.access.RequestCaller;
import dev.proofline.query.payment.Metering;
import dev.proofline.query.payment.PaymentOffer;
import dev.proofline.query.payment.X402;
import dev.proofline.query.verify.VerificationFrontDoor;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.Optional;

/**
 * {@code POST /verify/schema} and its alias {@code POST /verify/deliverable}, metered: the free
 * allowance, then x402 payment or 429 ({@code docs/payments.md}).
 */
public final class VerifyRoutes implements RouteGroup {
    private final VerificationFrontDoor frontDoor;
    private final Metering metering;
    private final String publicUrl;

    public VerifyRoutes(VerificationFrontDoor frontDoor, Metering metering, String publicUrl) {
        this.frontDoor = frontDoor;
        this.metering = metering;
        this.publicUrl = publicUrl;
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.routes.post("/verify/schema", this::verify);
        cfg.routes.post("/verify/deliverable", this::verify);
    }

    /**
     * {@code String.isBlank} of the UTF-8 body, without decoding a copy of every request: the first
     * ASCII byte that is not whitespace answers at once; only a body of whitespace and non-ASCII
     * bytes is decoded.
     */
    private static boolean isBlank(byte[] body) {
        for (byte b : body) {
            if (b < 0) {
                return new String(body, java.nio.charset.StandardCharsets.UTF_8).isBlank();
            }
            if (!Character.isWhitespace(b)) {
                return false;
            }
        }
        return true;
    }

    private void verify(Context ctx) throws Exception {
        RequestCaller caller = RequestCaller.of(ctx);
        String resource = publicUrl + ctx.path();
        byte[] body = ctx.bodyAsBytes();
        if (isBlank(body)) {
            Optional<Answer> probe = metering.probe(caller, resource); // x402 discovery: what would it cost?
            if (probe.isPresent()) {
                Responses.send(ctx, probe.get());
                return;
            }
        }
        String signature = ctx.header(X402.PAYMENT_SIGNATURE);
        PaymentOffer offer = signature == null ? PaymentOffer.NONE : new PaymentOffer.Header(signature);
        Responses.send(ctx, frontDoor.verify(body, caller.submitter(), metering.verification(caller, offer, resource)));
    }
}
