package dev.proofline.topology;

import dev.proofline.contract.CorrelationIds;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.Headers;
import dev.proofline.engine.Verdict;
import dev.proofline.engine.VerificationEngine;
import dev.proofline.schemas.avro.Receipt;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies one request record: a valid request becomes a signed receipt for the receipts sink, and
 * anything else becomes a dead letter carrying the error document ({@code docs/errors.md}), the original
 * bytes and where they came from. No record is dropped.
 */
final class VerifyProcessor implements Processor<byte[], byte[], Object, Object> {
    private static final Logger LOG = LoggerFactory.getLogger(VerifyProcessor.class);

    private final VerificationEngine engine;
    private final Clock clock;
    private final PipelineListener listener;
    private final Attribution attribution;
    private final EagerCommit eagerCommit;
    private final TopicLimits limits;
    private final PassLimit.Task passLimit;
    private ProcessorContext<Object, Object> context;
    private boolean holdingCommit; // a request of this task waits for a commit the gap held back

    VerifyProcessor(
            VerificationEngine engine,
            Clock clock,
            PipelineListener listener,
            Attribution attribution,
            EagerCommit eagerCommit,
            TopicLimits limits,
            PassLimit passLimit) {
        this.passLimit = passLimit.forTask();
        this.engine = engine;
        this.clock = clock;
        this.listener = listener;
        this.attribution = attribution;
        this.eagerCommit = eagerCommit;
        this.limits = limits;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        if (eagerCommit.enabled() && !eagerCommit.minGap().isZero()) {
            context.schedule(eagerCommit.minGap(), PunctuationType.WALL_CLOCK_TIME, now -> {
                if (holdingCommit && eagerCommit.askHeld(clock.millis())) {
                    holdingCommit = false;
                    context.commit();
                }
            });
        }
    }

    @Override
    public void process(Record<byte[], byte[]> request) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        // May end the pass here; or, after a pass was cut, asks for a commit after the record (PassLimit).
        boolean commitAfter =
                passLimit.beforeRecord(context.currentSystemTimeMs(), source.partition(), source.offset());
        long started = System.nanoTime();
        // Judged on arrival: how long the request waited is the lag; its own verification time is not.
        boolean commitAtOnce = eagerCommit.due(request.timestamp(), clock.millis());
        listener.started();
        try {
            byte[] value = request.value() == null ? new byte[0] : request.value();
            List<byte[]> correlationIds = headerValues(request, Headers.CORRELATION_ID);
            Optional<ErrorDocument> unanswerable = CorrelationIds.problem(correlationIds);
            if (unanswerable.isPresent()) {
                deadLetter(request, value, source, unanswerable.get());
                return;
            }
            UUID id = attribution.ids().of(source.topic(), source.partition(), source.offset());
            String submitter = attribution.submitter(request.headers(), value);
            Verdict verdict =
                    engine.process(value, id, clock.instant(), agentId -> attribution.scoring(agentId, submitter));
            if (verdict instanceof Verdict.Refused refused) {
                if (refused.cause() != null) {
                    // A bug, not a caller's mistake: say where and what failed, never what the record holds.
                    LOG.warn(
                            "verification failed at {}-{}@{}: {}",
                            source.topic(),
                            source.partition(),
                            source.offset(),
                            refused.cause().getClass().getSimpleName());
                }
                deadLetter(request, value, source, refused.error());
                return;
            }
            Receipt receipt = Receipts.toRecord(
                    ((Verdict.Signed) verdict).receipt(),
                    CorrelationIds.of(correlationIds.isEmpty() ? null : correlationIds.get(0)),
                    submitter);
            if (!fitsReceiptsTopic(receipt)) {
                // The operator's topic is smaller than a receipt can be; written anyway, it would fail
                // the transaction and this request would be verified and refused again for ever.
                LOG.warn(
                        "the receipt for {}-{}@{} is larger than the receipts topic takes ({} bytes):"
                                + " dead-lettered; raise the topic's max.message.bytes (docs/kafka.md)",
                        source.topic(),
                        source.partition(),
                        source.offset(),
                        limits.receiptBytes());
                listener.receiptTooLarge();
                deadLetter(request, value, source, ErrorDocument.verificationFailed());
                return;
            }
            listener.verified(receipt.getResult(), System.nanoTime() - started);
            RecordHeaders headers = new RecordHeaders();
            if (receipt.getCorrelationId() != null) {
                headers.add(Headers.CORRELATION_ID, receipt.getCorrelationId().getBytes(StandardCharsets.UTF_8));
            }
            context.forward(
                    new Record<Object, Object>(Receipts.key(receipt), receipt, request.timestamp(), headers),
                    VerificationTopology.RECEIPTS_SINK);
        } finally {
            listener.finished(System.nanoTime() - started);
            if (commitAfter) {
                holdingCommit = false; // this commit covers a request the gap held too
                context.commit();
            } else if (commitAtOnce) {
                askForCommit(request.timestamp());
            }
        }
    }

    /** Asks Streams to commit after this pass of its loop, or holds the ask while the thread's gap lasts. */
    private void askForCommit(long writtenAt) {
        holdingCommit = !eagerCommit.askNow(writtenAt, clock.millis());
        if (!holdingCommit) {
            context.commit();
        }
    }

    private void deadLetter(Record<byte[], byte[]> request, byte[] value, RecordMetadata source, ErrorDocument error) {
        listener.deadLettered(error.code().code());
        context.forward(
                DeadLetterRecord.of(request, value, source, error, limits.deadLetterBytes()),
                VerificationTopology.DEAD_LETTER_SINK);
    }

    /** Nearly always settled by the limit alone: only a topic made smaller than Kafka's default needs a count. */
    private boolean fitsReceiptsTopic(Receipt receipt) {
        if (limits.takesEveryReceipt()) {
            return true;
        }
        String json = receipt.getSignedJson();
        long room = (long) limits.receiptBytes() - Receipts.RECORD_ROOM_BYTES;
        return 3L * json.length() <= room || utf8Length(json) <= room;
    }

    private static long utf8Length(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            // A surrogate pair is 4 bytes, 2 per half.
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
        }
        return bytes;
    }

    private static List<byte[]> headerValues(Record<byte[], byte[]> record, String name) {
        List<byte[]> values = new ArrayList<>(1);
        record.headers().headers(name).forEach(header -> values.add(header.value()));
        return values;
    }
}
