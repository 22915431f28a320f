package dev.proofline.query.http;

import dev.proofline.query.access.RequestCaller;
import dev.proofline.query.verify.VerificationFrontDoor;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;

/** {@code POST /verify/schema} and its alias {@code POST /verify/deliverable}. */
public final class VerifyRoutes implements RouteGroup {
    private final VerificationFrontDoor frontDoor;

    public VerifyRoutes(VerificationFrontDoor frontDoor) {
        this.frontDoor = frontDoor;
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.routes.post("/verify/schema", this::verify);
        cfg.routes.post("/verify/deliverable", this::verify);
    }

    private void verify(Context ctx) throws Exception {
        Responses.send(
                ctx, frontDoor.verify(ctx.bodyAsBytes(), RequestCaller.of(ctx).submitter()));
    }
}
