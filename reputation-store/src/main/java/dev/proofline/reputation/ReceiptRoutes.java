package dev.proofline.reputation;

import dev.proofline.attestor.StrictJson;
import dev.proofline.engine.ErrorDocument;
import dev.proofline.schemas.avro.Receipt;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.List;
import java.util.Optional;

/**
 * {@code GET /receipts/{verification_id}}: the signed receipt exactly as signed, from any instance
 * (found through the receipt index, read back from the receipts topic). What a REST caller whose
 * {@code POST /verify/schema} answered 504 {@code receipt_pending} asks next.
 */
public final class ReceiptRoutes {
    private final ReceiptIndex index;
    private final ReceiptLog log;

    public ReceiptRoutes(ReceiptIndex index, ReceiptLog log) {
        this.index = index;
        this.log = log;
    }

    public void mount(JavalinConfig cfg) {
        cfg.routes.get("/receipts/{verification_id}", this::receipt);
        cfg.routes.get(ReceiptIndex.INTERNAL_PATH + "{verification_id}", this::localPosition);
    }

    private void receipt(Context ctx) {
        try {
            Optional<Receipt> receipt = index.find(ctx.pathParam("verification_id").trim())
                    .flatMap(position -> log.read(List.of(position)).get(0));
            if (receipt.isPresent()) {
                ctx.contentType("application/json").result(receipt.get().getSignedJson());
            } else {
                VerificationFrontDoor.error(ErrorDocument.receiptNotFound(ScoreQueries.RETRY_AFTER_SECONDS)).writeTo(ctx);
            }
        } catch (AgentHistories.NotQueryableException e) {
            VerificationFrontDoor.error(ErrorDocument.notReady(ScoreQueries.RETRY_AFTER_SECONDS)).writeTo(ctx);
        }
    }

    /** Another instance asks: this instance's own index only. */
    private void localPosition(Context ctx) {
        try {
            Optional<ReceiptPosition> position = index.findLocally(ctx.pathParam("verification_id"));
            if (position.isPresent()) {
                ctx.contentType("application/json").result(StrictJson.NODES.objectNode()
                        .put("partition", position.get().partition()).put("offset", position.get().offset()).toString());
            } else {
                ctx.status(404);
            }
        } catch (AgentHistories.NotQueryableException e) {
            VerificationFrontDoor.error(ErrorDocument.notReady(ScoreQueries.RETRY_AFTER_SECONDS)).writeTo(ctx);
        }
    }
}
