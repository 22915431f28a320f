package dev.proofline.reputation;

import dev.proofline.engine.ErrorDocument;
import dev.proofline.engine.ParseOutcome;
import dev.proofline.engine.RequestParser;
import dev.proofline.topology.Headers;
import dev.proofline.topology.VerificationIds;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import tools.jackson.databind.JsonNode;

/**
 * The REST front door, {@code POST /verify/schema} and its alias {@code POST /verify/deliverable}:
 * the request is checked first (413 over the size limit, 422 when invalid, nothing published),
 * then published to the input topic with a correlation id, and the answer is the receipt the
 * pipeline signs for it, read back from the receipts topic. The same pipeline serves Kafka and
 * REST callers, so both get the same receipts.
 */
public final class VerifyRoutes {
    private static final int RETRY_AFTER_SECONDS = 1;

    private final RequestParser parser;
    private final KafkaProducer<String, byte[]> producer;
    private final ReceiptReplies replies;
    private final String inputTopic;
    private final Duration timeout;

    public VerifyRoutes(RequestParser parser, KafkaProducer<String, byte[]> producer, ReceiptReplies replies,
                        String inputTopic, Duration timeout) {
        this.parser = parser;
        this.producer = producer;
        this.replies = replies;
        this.inputTopic = inputTopic;
        this.timeout = timeout;
    }

    public void mount(JavalinConfig cfg) {
        cfg.routes.post("/verify/schema", this::verify);
        cfg.routes.post("/verify/deliverable", this::verify);
    }

    private void verify(Context ctx) throws Exception {
        byte[] body = ctx.bodyAsBytes();
        ParseOutcome outcome = parser.parse(body);
        if (outcome instanceof ParseOutcome.Invalid invalid) {
            send(ctx, invalid.error());
            return;
        }
        String agentId = ((ParseOutcome.Valid) outcome).request().agentId();
        String correlationId = UUID.randomUUID().toString();
        var reply = replies.expect(correlationId);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(inputTopic, agentId, body);
        record.headers().add(Headers.CORRELATION_ID, correlationId.getBytes(StandardCharsets.UTF_8));
        RecordMetadata written;
        try {
            written = producer.send(record).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            replies.forget(correlationId);
            throw e;
        }
        String verificationId = VerificationIds.of(written.topic(), written.partition(), written.offset()).toString();
        try {
            ReceiptReplies.Reply answer = reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (answer.receipt()) {
                ctx.status(200).contentType("application/json").result(answer.json());
            } else {
                JsonNode error = dev.proofline.attestor.StrictJson.parse(answer.json());
                ctx.status(error.path("status").asInt(500)).contentType("application/json").result(answer.json());
            }
        } catch (TimeoutException e) {
            replies.forget(correlationId);
            ctx.header("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
            send(ctx, ErrorDocument.receiptPending(verificationId, RETRY_AFTER_SECONDS));
        }
    }

    private static void send(Context ctx, ErrorDocument error) {
        ctx.status(error.code().status()).contentType("application/json").result(error.toJson().toString());
    }
}
