package dev.proofline.query.verify;

import dev.proofline.access.Submitter;
import dev.proofline.access.SubmitterStamp;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.Headers;
import dev.proofline.engine.ParseOutcome;
import dev.proofline.engine.RequestParser;
import dev.proofline.query.Answer;
import dev.proofline.query.Failures;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.CorrelatedReplies;
import dev.proofline.schemas.VerificationIds;
import dev.proofline.schemas.avro.Receipt;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Verification for callers outside Kafka (REST and MCP): the request is checked first (413 over
 * the size limit, 422 when invalid, nothing published), then published to the input topic with a
 * correlation id, and the answer is the receipt the pipeline signs for it, read back from the
 * receipts topic. A timeout is 504 {@code receipt_pending}: the request is not lost. If Kafka does
 * not take the request in time, the answer is 503 {@code broker_unavailable}, never a bare 500; if
 * the requests already waiting hold all the room they may ({@link WaitingBytes}), 503
 * {@code server_busy}.
 */
public final class VerificationFrontDoor {
    private static final Logger LOG = LoggerFactory.getLogger(VerificationFrontDoor.class);
    /** How long past its deadline a caller whose receipt is in waits for the acknowledgement of its request. */
    private static final long ACKNOWLEDGEMENT_GRACE_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How long past the verify timeout the producer's verdict on an unacknowledged write is waited for. */
    private static final long VERDICT_GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final RequestParser parser;
    private final Producer<String, byte[]> producer;
    private final CorrelatedReplies replies;
    private final AvroSerde<Receipt> receipts;
    private final String inputTopic;
    private final Duration timeout;
    private final SubmitterStamp stamp;
    private final VerificationIds ids;
    private final Answered answered;
    private final WaitingBytes waiting;

    /** Told of each receipt a caller is answered with: its verification id, agent and where it is. */
    @FunctionalInterface
    public interface Answered {
        void receipt(String verificationId, String agentId, int partition, long offset);
    }

    public VerificationFrontDoor(
            RequestParser parser,
            Producer<String, byte[]> producer,
            CorrelatedReplies replies,
            AvroSerde<Receipt> receipts,
            String inputTopic,
            Duration timeout,
            SubmitterStamp stamp,
            VerificationIds ids,
            WaitingBytes waiting,
            Answered answered) {
        this.answered = answered;
        this.waiting = waiting;
        this.stamp = stamp;
        this.ids = ids;
        this.parser = parser;
        this.producer = producer;
        this.replies = replies;
        this.receipts = receipts;
        this.inputTopic = inputTopic;
        this.timeout = timeout;
    }

    /** The largest request taken, in bytes ({@code max.request.bytes}). */
    public int maxRequestBytes() {
        return parser.maxRequestBytes();
    }

    /**
     * @param submitter who is asking (a key or an anonymous client address): recorded on the request
     *                  record in a header only this deployment can make, so the receipt can be given
     *                  back to them and to nobody else but operators
     */
    public Answer verify(byte[] body, Submitter submitter) throws InterruptedException {
        return verify(body, submitter, Admission.FREE);
    }

    /** The same, with a say (allowance, payment) on each valid request before it is published. */
    public Answer verify(byte[] body, Submitter submitter, Admission admission) throws InterruptedException {
        ParseOutcome outcome;
        try {
            outcome = parser.parse(body);
        } catch (RuntimeException | StackOverflowError e) {
            // The parser turns every bad request into a document; reaching here is a bug, still answered.
            LOG.warn("the request check failed: {}", e.getClass().getSimpleName());
            return Answer.error(ErrorDocument.verificationFailed());
        }
        if (outcome instanceof ParseOutcome.Invalid invalid) {
            return Answer.error(invalid.error());
        }
        String agentId = ((ParseOutcome.Valid) outcome).request().agentId(); // the parsed tree need not wait
        if (!waiting.take(body.length)) {
            return Answer.error(ErrorDocument.verificationsBusy());
        }
        try {
            Admission.Decision decision = admission.admit();
            if (decision instanceof Admission.Decision.Refuse refuse) {
                return refuse.answer();
            }
            Answer answer;
            try {
                answer = publishAndAwait(body, submitter, agentId);
            } catch (RuntimeException e) {
                // A bug, or a reply that cannot be read: still answered, and finished like any error,
                // so a free verification taken is given back and nothing is settled. internal_error,
                // not a refusal: the request was published and may have its receipt, so a payment
                // is not given back for it.
                LOG.warn("a REST/MCP verification failed: {}", Failures.where(e));
                answer = Answer.error(ErrorDocument.internalError());
            }
            return ((Admission.Decision.Proceed) decision).finish().apply(answer);
        } finally {
            waiting.giveBack(body.length);
        }
    }

    /**
     * One wait, not two: the caller waits for its receipt alone. A write Kafka refuses ends that wait
     * at once (the send's callback fails the reply); where the request was written is needed only if
     * the receipt is late, for the {@code receipt_pending} id. The whole wait is bounded by the timeout.
     */
    private Answer publishAndAwait(byte[] body, Submitter submitter, String agentId) throws InterruptedException {
        String correlationId = UUID.randomUUID().toString();
        CompletableFuture<CorrelatedReplies.Reply> reply = replies.expect(correlationId);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(inputTopic, agentId, body);
        record.headers().add(Headers.CORRELATION_ID, correlationId.getBytes(StandardCharsets.UTF_8));
        stamp.stamp(record.headers(), submitter, body);
        CompletableFuture<RecordMetadata> written = new CompletableFuture<>();
        try {
            producer.send(record, (metadata, failure) -> {
                if (failure != null) {
                    written.completeExceptionally(failure);
                    reply.completeExceptionally(failure);
                } else {
                    written.complete(metadata);
                }
            });
        } catch (KafkaException e) {
            return notPublished(correlationId, e.toString());
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            return answer(reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS), written, deadline);
        } catch (ExecutionException e) {
            return notPublished(correlationId, e.getCause().toString());
        } catch (TimeoutException e) {
            replies.forget(correlationId);
            RecordMetadata at;
            try {
                // The producer's delivery timeout is the verify timeout, so its verdict on this write is
                // due now: written (the receipt will come; the caller can fetch it by id) or given up
                // (never written, so "not published" is true and a retry verifies it once).
                at = written.get(VERDICT_GRACE_NANOS, TimeUnit.NANOSECONDS);
            } catch (ExecutionException refused) {
                return notPublished(correlationId, "refused");
            } catch (TimeoutException noVerdict) {
                return notPublished(correlationId, "no acknowledgement in " + timeout.toSeconds() + " s");
            }
            String id = ids.of(at.topic(), at.partition(), at.offset()).toString();
            return Answer.error(ErrorDocument.receiptPending(id));
        }
    }

    /** Kafka did not take the request in time, or refused it: 503, and nobody waits for a receipt. */
    private Answer notPublished(String correlationId, String why) {
        replies.forget(correlationId);
        LOG.warn("a REST/MCP request was not published: {}", why);
        return Answer.error(ErrorDocument.brokerUnavailable());
    }

    /**
     * The signed receipt exactly as signed, or the dead letter's error document with its own status.
     * A receipt must be the one for the record this request was written as: its verification id is
     * derived from where that record is. A reply is found by its correlation id alone, and anyone who
     * can read the input topic and write to the receipts topic could otherwise answer a caller (and
     * have a payment settled) with a receipt for something else.
     */
    private Answer answer(CorrelatedReplies.Reply reply, CompletableFuture<RecordMetadata> written, long deadline)
            throws InterruptedException {
        if (reply.isReceipt()) {
            Receipt receipt = receipts.deserialize(reply.value());
            RecordMetadata at;
            try { // the receipt can be read a moment before the producer hears its request was written
                at = written.get(
                        Math.max(deadline - System.nanoTime(), ACKNOWLEDGEMENT_GRACE_NANOS), TimeUnit.NANOSECONDS);
            } catch (ExecutionException | TimeoutException e) {
                LOG.warn(
                        "a receipt came back for a request Kafka did not acknowledge: {}",
                        e.getClass().getSimpleName());
                // Not broker_unavailable ("most likely not published"): this request was verified.
                return Answer.error(ErrorDocument.internalError());
            }
            String expected = ids.of(at.topic(), at.partition(), at.offset()).toString();
            if (!expected.equals(receipt.getVerificationId())) {
                LOG.warn(
                        "the receipt at partition {} offset {} carries a caller's correlation id but another"
                                + " request's verification id; the caller is told to fetch its own",
                        reply.partition(),
                        reply.offset());
                return Answer.error(ErrorDocument.receiptPending(expected));
            }
            answered.receipt(receipt.getVerificationId(), receipt.getAgentId(), reply.partition(), reply.offset());
            return Answer.ok(receipt.getSignedJson());
        }
        String document = reply.text();
        JsonNode error;
        try {
            error = StrictJson.parse(document);
        } catch (RuntimeException notJson) {
            error = StrictJson.NODES.nullNode();
        }
        int status = error.path("status").asInt(0);
        if (status < 400 || status > 599 || !error.path("code").isString()) {
            // Not a dead letter Proofline wrote (its status is always an error's): someone wrote to
            // the dead-letter topic with this caller's correlation id. Never passed on, least of all
            // as a 200 that would have a payment settled.
            LOG.warn(
                    "the dead letter at partition {} offset {} carries a caller's correlation id but no error"
                            + " document; the caller is told the request failed here",
                    reply.partition(),
                    reply.offset());
            return Answer.error(ErrorDocument.internalError());
        }
        return Answer.errorDocument(document, status, error.get("code").asString());
    }
}
