package dev.proofline.reputation;

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
        frontDoor.verify(ctx.bodyAsBytes()).writeTo(ctx);
    }
}
