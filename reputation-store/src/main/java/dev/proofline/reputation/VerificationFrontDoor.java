package dev.proofline.reputation;

import dev.proofline.attestor.StrictJson;
import dev.proofline.engine.ErrorDocument;
import dev.proofline.engine.ParseOutcome;
import dev.proofline.engine.RequestParser;
import dev.proofline.schemas.Headers;
import dev.proofline.topology.VerificationIds;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Verification for callers outside Kafka (REST and MCP): the request is checked first (413 over
 * the size limit, 422 when invalid, nothing published), then published to the input topic with a
 * correlation id, and the answer is the receipt the pipeline signs for it, read back from the
 * receipts topic. A timeout is 504 {@code receipt_pending}: the request is not lost. If Kafka does
 * not take the request in time, the answer is 503 {@code broker_unavailable}, never a bare 500.
 */
public final class VerificationFrontDoor {
    private static final Logger LOG = LoggerFactory.getLogger(VerificationFrontDoor.class);
    private static final int RETRY_AFTER_SECONDS = 1;
    private static final int BROKER_RETRY_AFTER_SECONDS = 5;

    private final RequestParser parser;
    private final KafkaProducer<String, byte[]> producer;
    private final ReceiptReplies replies;
    private final String inputTopic;
    private final Duration timeout;

    public VerificationFrontDoor(RequestParser parser, KafkaProducer<String, byte[]> producer, ReceiptReplies replies,
                                 String inputTopic, Duration timeout) {
        this.parser = parser;
        this.producer = producer;
        this.replies = replies;
        this.inputTopic = inputTopic;
        this.timeout = timeout;
    }

    public Answer verify(byte[] body) throws InterruptedException {
        ParseOutcome outcome = parser.parse(body);
        if (outcome instanceof ParseOutcome.Invalid invalid) {
            return error(invalid.error());
        }
        String agentId = ((ParseOutcome.Valid) outcome).request().agentId();
        String correlationId = UUID.randomUUID().toString();
        var reply = replies.expect(correlationId);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(inputTopic, agentId, body);
        record.headers().add(Headers.CORRELATION_ID, correlationId.getBytes(StandardCharsets.UTF_8));
        RecordMetadata written;
        try {
            written = producer.send(record).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException | KafkaException e) {
            replies.forget(correlationId);
            LOG.warn("a REST/MCP request was not published: {}", e.getCause() != null ? e.getCause().toString() : e.toString());
            return error(ErrorDocument.brokerUnavailable(BROKER_RETRY_AFTER_SECONDS));
        }
        try {
            ReceiptReplies.Reply answer = reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return answer.receipt() ? new Answer(200, answer.json())
                    : new Answer(StrictJson.parse(answer.json()).path("status").asInt(500), answer.json());
        } catch (ExecutionException e) {
            throw new IllegalStateException("a reply future never fails", e);
        } catch (TimeoutException e) {
            replies.forget(correlationId);
            String id = VerificationIds.of(written.topic(), written.partition(), written.offset()).toString();
            return error(ErrorDocument.receiptPending(id, RETRY_AFTER_SECONDS));
        }
    }

    static Answer error(ErrorDocument error) {
        return new Answer(error.code().status(), error.toJson().toString());
    }
}
