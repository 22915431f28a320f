package dev.proofline.query.http;

import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.ScoredAgents;
import dev.proofline.query.Answer;
import dev.proofline.query.access.RequestCaller;
import dev.proofline.query.tlog.PublishedLog;
import dev.proofline.reputation.ReceiptPosition;
import dev.proofline.reputation.query.ReceiptIndex;
import dev.proofline.reputation.query.ReceiptLog;
import dev.proofline.schemas.avro.Receipt;
import dev.proofline.tlog.LogRecords;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code GET /receipts/{verification_id}}: the signed receipt exactly as signed, to whoever submitted
 * it and to operators ({@code docs/access.md}), from any instance
 * (found through the receipt index, read back from the receipts topic). What a REST caller whose
 * {@code POST /verify/schema} answered 504 {@code receipt_pending} asks next.
 */
public final class ReceiptRoutes implements RouteGroup {
    private final ReceiptIndex index;
    private final ReceiptLog log;

    /** Every verification_id is a UUID in its canonical text form; receipts carry it in lower case. */
    private static final Pattern VERIFICATION_ID =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final Optional<PublishedLog> transparencyLog;

    /** @param transparencyLog the log its proofs come from; empty where the deployment runs none */
    public ReceiptRoutes(ReceiptIndex index, ReceiptLog log, Optional<PublishedLog> transparencyLog) {
        this.index = index;
        this.log = log;
        this.transparencyLog = transparencyLog;
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.routes.get("/receipts/{verification_id}", this::receipt);
        transparencyLog.ifPresent(
                published -> cfg.routes.get("/receipts/{verification_id}/proof", ctx -> proof(ctx, published)));
        cfg.routes.get(ReceiptIndex.INTERNAL_PATH + "{verification_id}", this::localPosition);
    }

    /**
     * Only its submitter, or an operator, gets it; anyone else gets the same 404 as for an id that
     * does not exist, so nobody learns which ids do.
     */
    private void receipt(Context ctx) {
        visibleReceipt(ctx).ifPresent(receipt -> Responses.json(ctx, receipt.getSignedJson()));
    }

    /**
     * The receipt's tlog-proof ({@code docs/tlog.md}): to whoever may read the receipt, since the
     * proof names the receipt's place in the log.
     */
    private void proof(Context ctx, PublishedLog published) {
        Optional<Receipt> receipt = visibleReceipt(ctx);
        if (receipt.isEmpty()) {
            return;
        }
        if (ScoredAgents.isTestAgent(receipt.get().getAgentId())) {
            Responses.send(ctx, Answer.error(ErrorDocument.notInTransparencyLog()));
            return;
        }
        byte[] entry = LogRecords.entry(receipt.get().getSignedJson());
        if (published.proof(entry) instanceof PublishedLog.Proof proof) {
            ctx.contentType("text/plain; charset=utf-8").result(proof.text());
        } else {
            Responses.send(ctx, Answer.error(ErrorDocument.proofPending()));
        }
    }

    /** The receipt if the caller may see it; otherwise the error has been sent. */
    private Optional<Receipt> visibleReceipt(Context ctx) {
        String id = ctx.pathParam("verification_id"); // not trimmed: an id with a space is no id
        if (!VERIFICATION_ID.matcher(id).matches()) {
            // Not retryable, unlike a 404: no receipt will ever have this id.
            Responses.send(ctx, Answer.error(ErrorDocument.invalidVerificationId()));
            return Optional.empty();
        }
        RequestCaller caller = RequestCaller.of(ctx);
        Optional<Receipt> receipt = index.find(id.toLowerCase(java.util.Locale.ROOT))
                .flatMap(position -> log.read(List.of(position)).get(0))
                .filter(r -> caller.maySee(r.getSubmittedBy() == null ? null : r.getSubmittedBy()));
        if (receipt.isEmpty()) {
            Responses.send(ctx, Answer.error(ErrorDocument.receiptNotFound()));
        }
        return receipt;
    }

    /** Another instance asks: this instance's own index only. */
    private void localPosition(Context ctx) {
        Optional<ReceiptPosition> position = index.findLocally(ctx.pathParam("verification_id"));
        if (position.isPresent()) {
            Responses.json(
                    ctx,
                    StrictJson.NODES
                            .objectNode()
                            .put("partition", position.get().partition())
                            .put("offset", position.get().offset())
                            .toString());
        } else {
            ctx.status(404);
        }
    }
}
