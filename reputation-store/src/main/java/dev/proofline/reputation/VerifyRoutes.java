package dev.proofline.reputation;

import dev.proofline.attestor.StrictJson;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;

/** {@code POST /verify/schema} and its alias {@code POST /verify/deliverable}. */
public final class VerifyRoutes {
    private final VerificationFrontDoor frontDoor;

    public VerifyRoutes(VerificationFrontDoor frontDoor) {
        this.frontDoor = frontDoor;
    }

    public void mount(JavalinConfig cfg) {
        cfg.routes.post("/verify/schema", this::verify);
        cfg.routes.post("/verify/deliverable", this::verify);
    }

    private void verify(Context ctx) throws Exception {
        Answer answer = frontDoor.verify(ctx.bodyAsBytes());
        if (answer.status() == 504 || answer.status() == 503) {
            ctx.header("Retry-After", Integer.toString(StrictJson.parse(answer.json()).path("retry_after").asInt(1)));
        }
        ctx.status(answer.status()).contentType("application/json").result(answer.json());
    }
}
