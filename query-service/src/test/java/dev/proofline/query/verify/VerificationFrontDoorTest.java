package dev.proofline.query.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.access.Submitter;
import dev.proofline.access.SubmitterStamp;
import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.DeploymentSecret;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.SigningKey;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.Headers;
import dev.proofline.contract.Topics;
import dev.proofline.engine.EngineSettings;
import dev.proofline.engine.VerificationEngine;
import dev.proofline.query.Answer;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.CorrelatedReplies;
import dev.proofline.schemas.InMemorySchemaRegistry;
import dev.proofline.schemas.TestReceipts;
import dev.proofline.schemas.VerificationIds;
import dev.proofline.schemas.avro.Receipt;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The front door's one wait, against Kafka's own {@link MockProducer} and {@link MockConsumer}: a
 * write Kafka refuses ends the caller's wait at once, a written request whose receipt is late is
 * {@code receipt_pending} with the id of where it was written, and a dead letter answers its caller.
 */
class VerificationFrontDoorTest {
    private static final Topics TOPICS = Topics.defaults();
    private static final TopicPartition RECEIPTS = new TopicPartition(TOPICS.receipts(), 0);
    private static final TopicPartition DEAD_LETTERS = new TopicPartition(TOPICS.deadLetter(), 0);
    private static final byte[] ID_KEY = "front-door-test-verification-ids".getBytes(StandardCharsets.UTF_8);

    private final MockProducer<String, byte[]> producer =
            new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("latest");
    private CorrelatedReplies replies;
    private WaitingBytes waiting = new WaitingBytes(64L * 1024 * 1024);
    private final AvroSerde<Receipt> receiptSerde =
            new AvroSerde<>(new InMemorySchemaRegistry(), Receipt.getClassSchema());

    @AfterEach
    void close() throws InterruptedException {
        if (replies != null) {
            replies.close();
        }
    }

    private VerificationFrontDoor frontDoor(Duration timeout) {
        consumer.updateEndOffsets(Map.of(RECEIPTS, 0L, DEAD_LETTERS, 0L));
        consumer.schedulePollTask(() -> consumer.rebalance(List.of(RECEIPTS, DEAD_LETTERS)));
        replies = new CorrelatedReplies(consumer, TOPICS, true, reply -> {}, "test-replies");
        VerificationEngine engine = new VerificationEngine(
                EngineSettings.defaults(),
                new Attestor(KeyRing.of(SigningKey.generate("v1-test", new SecureRandom()))));
        return new VerificationFrontDoor(
                engine.parser(),
                producer,
                replies,
                receiptSerde,
                TOPICS.input(),
                timeout,
                new SubmitterStamp(DeploymentSecret.of(new byte[32])),
                new VerificationIds(ID_KEY),
                waiting,
                (verificationId, agentId, partition, offset) -> {});
    }

    private static byte[] validRequest() throws Exception {
        return Files.readAllBytes(Conformance.file("requests/invoice-final.json"));
    }

    /** Calls {@code verify} on another thread, returning once the request reached the producer. */
    private CompletableFuture<Answer> verifyInBackground(VerificationFrontDoor door) throws Exception {
        return verifyInBackground(door, Admission.FREE);
    }

    private CompletableFuture<Answer> verifyInBackground(VerificationFrontDoor door, Admission admission)
            throws Exception {
        byte[] body = validRequest();
        CompletableFuture<Answer> answer = CompletableFuture.supplyAsync(() -> {
            try {
                return door.verify(body, Submitter.address("127.0.0.1"), admission);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        while (producer.history().isEmpty()) {
            Thread.sleep(5);
        }
        return answer;
    }

    /** Answers the first request sent with a dead letter whose value is {@code text}. */
    private void deadLetterForTheFirstRequest(String text) {
        ConsumerRecord<byte[], byte[]> deadLetter =
                new ConsumerRecord<>(DEAD_LETTERS.topic(), 0, 0, null, text.getBytes(StandardCharsets.UTF_8));
        deadLetter
                .headers()
                .add(
                        Headers.CORRELATION_ID,
                        correlationId(producer.history().get(0)).getBytes(StandardCharsets.UTF_8));
        consumer.schedulePollTask(() -> consumer.addRecord(deadLetter));
    }

    /** Answers the first request sent with a receipt whose verification id is {@code verificationId}. */
    private void receiptForTheFirstRequest(String verificationId, String signedJson) {
        byte[] value = receiptSerde.serialize(
                RECEIPTS.topic(), TestReceipts.carrying(verificationId, "task", "agent", signedJson));
        ConsumerRecord<byte[], byte[]> receipt = new ConsumerRecord<>(RECEIPTS.topic(), 0, 0, null, value);
        receipt.headers()
                .add(
                        Headers.CORRELATION_ID,
                        correlationId(producer.history().get(0)).getBytes(StandardCharsets.UTF_8));
        consumer.schedulePollTask(() -> consumer.addRecord(receipt));
    }

    private static String correlationId(ProducerRecord<String, byte[]> sent) {
        return new String(sent.headers().lastHeader(Headers.CORRELATION_ID).value(), StandardCharsets.UTF_8);
    }

    @Test
    void aWriteKafkaRefusesEndsTheWaitAtOnceWith503() throws Exception {
        VerificationFrontDoor door = frontDoor(Duration.ofMinutes(10));
        CompletableFuture<Answer> pending = verifyInBackground(door);
        producer.errorNext(new NotEnoughReplicasException("not enough replicas"));
        // A liveness bound, not a speed figure: a refused write must not leave the caller waiting out its timeout.
        Answer answer = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> pending.get());
        assertEquals(503, answer.status(), answer.json());
        assertEquals(
                "broker_unavailable",
                StrictJson.parse(answer.json()).get("code").asString());
        assertEquals(0, replies.waitingCount(), "nobody is left waiting for a receipt");
    }

    @Test
    void aWrittenRequestWhoseReceiptIsLateIsPendingUnderTheIdOfWhereItWasWritten() throws Exception {
        VerificationFrontDoor door = frontDoor(Duration.ofSeconds(1));
        CompletableFuture<Answer> pending = verifyInBackground(door);
        producer.completeNext();
        Answer answer = pending.get(60, TimeUnit.SECONDS);
        assertEquals(504, answer.status(), answer.json());
        JsonNode error = StrictJson.parse(answer.json());
        assertEquals("receipt_pending", error.get("code").asString());
        String expectedId = new VerificationIds(ID_KEY).of(TOPICS.input(), 0, 0).toString();
        assertTrue(answer.json().contains(expectedId), answer.json());
        assertEquals(0, replies.waitingCount());
    }

    /**
     * Kafka's acknowledgement comes just after the caller's timeout (the producer's delivery timeout
     * is the verify timeout, so its verdict is due then): the request was written, so it is pending
     * under its id, not "not published", which would invite a retry that verifies it twice.
     */
    @Test
    void aWriteAcknowledgedJustAfterTheTimeoutIsPendingNotUnpublished() throws Exception {
        VerificationFrontDoor door = frontDoor(Duration.ofSeconds(1));
        CompletableFuture<Answer> pending = verifyInBackground(door);
        Thread.sleep(1_500);
        producer.completeNext();
        Answer answer = pending.get(60, TimeUnit.SECONDS);
        assertEquals(504, answer.status(), answer.json());
        assertEquals(
                "receipt_pending", StrictJson.parse(answer.json()).get("code").asString());
        assertTrue(answer.json().contains(idAt(0)), answer.json());
    }

    /** The id of the request record at this offset of input partition 0. */
    private static String idAt(long offset) {
        return new VerificationIds(ID_KEY).of(TOPICS.input(), 0, offset).toString();
    }

    /** A request written at offset 0, answered with a receipt carrying {@code verificationId}. */
    private Answer answeredWithAReceiptFor(String verificationId) throws Exception {
        VerificationFrontDoor door = frontDoor(Duration.ofMinutes(10));
        CompletableFuture<Answer> pending = verifyInBackground(door);
        producer.completeNext();
        receiptForTheFirstRequest(verificationId, signedFor(verificationId));
        return pending.get(60, TimeUnit.SECONDS);
    }

    private static String signedFor(String verificationId) {
        return "{\"verification_id\":\"" + verificationId + "\",\"result\":\"pass\"}";
    }

    @Test
    void theReceiptForTheRecordWrittenIsTheAnswerExactlyAsSigned() throws Exception {
        Answer answer = answeredWithAReceiptFor(idAt(0));
        assertEquals(200, answer.status(), answer.json());
        assertEquals(signedFor(idAt(0)), answer.json());
    }

    /**
     * A reply is found by correlation id alone: one who can read the input topic and write to the
     * receipts topic can send a receipt for another request under a caller's correlation id. It is
     * not the caller's answer (nor what a payment would settle on): they are told their own id.
     */
    @Test
    void aReceiptForAnotherRecordUnderTheCallersCorrelationIdIsNotTheirAnswer() throws Exception {
        Answer answer = answeredWithAReceiptFor(idAt(7));
        assertEquals(504, answer.status(), answer.json());
        assertEquals(
                "receipt_pending", StrictJson.parse(answer.json()).get("code").asString());
        assertTrue(answer.json().contains(idAt(0)), answer.json());
        assertFalse(answer.json().contains(idAt(7)), answer.json());
    }

    @Test
    void aDeadLetterForTheRequestIsItsAnswer() throws Exception {
        VerificationFrontDoor door = frontDoor(Duration.ofMinutes(10));
        CompletableFuture<Answer> pending = verifyInBackground(door);
        producer.completeNext();
        String document = "{\"code\":\"schema_unavailable\",\"status\":422}";
        deadLetterForTheFirstRequest(document);
        Answer answer = pending.get(60, TimeUnit.SECONDS);
        assertEquals(422, answer.status());
        assertEquals(document, answer.json());
    }

    /** Written by someone else with the caller's correlation id: a "200" must never reach payment settling. */
    @Test
    void aDeadLetterThatIsNoErrorDocumentIsNeverPassedOnAsTheAnswer() throws Exception {
        VerificationFrontDoor door = frontDoor(Duration.ofMinutes(10));
        CompletableFuture<Answer> pending = verifyInBackground(door);
        producer.completeNext();
        deadLetterForTheFirstRequest("{\"code\":\"pass\",\"status\":200,\"result\":\"pass\"}");
        Answer answer = pending.get(60, TimeUnit.SECONDS);
        assertEquals(500, answer.status(), answer.json());
        assertEquals(
                "internal_error", StrictJson.parse(answer.json()).get("code").asString());
    }

    @Test
    void pastTheWaitingBytesARequestIsBusyBeforeItIsPublishedAndRoomReturnsWithTheAnswer() throws Exception {
        int size = validRequest().length;
        waiting = new WaitingBytes(size + size / 2); // room for one request, not two
        VerificationFrontDoor door = frontDoor(Duration.ofMinutes(10));
        CompletableFuture<Answer> first = verifyInBackground(door);
        assertEquals(size, waiting.held());

        Answer busy = door.verify(validRequest(), Submitter.address("127.0.0.2"));
        assertEquals(503, busy.status(), busy.json());
        assertEquals("server_busy", StrictJson.parse(busy.json()).get("code").asString());
        assertEquals(5, busy.retryAfterSeconds());
        assertEquals(1, producer.history().size(), "the refused request was not published");

        producer.errorNext(new NotEnoughReplicasException("not enough replicas")); // the first one ends
        assertEquals(503, first.get(60, TimeUnit.SECONDS).status());
        assertEquals(0, waiting.held(), "its room is given back");
        byte[] again = validRequest();
        CompletableFuture.runAsync(() -> {
            try {
                door.verify(again, Submitter.address("127.0.0.3"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        // and another is let in: it reaches the producer
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            while (producer.history().size() < 2) {
                Thread.sleep(5);
            }
        });
        producer.errorNext(new NotEnoughReplicasException("test over")); // nobody is left waiting
    }

    @Test
    void oneRequestIsLetInWhenNothingWaitsEvenIfItIsLargerThanTheBound() throws Exception {
        waiting = new WaitingBytes(10);
        VerificationFrontDoor door = frontDoor(Duration.ofMinutes(10));
        CompletableFuture<Answer> pending = verifyInBackground(door);
        assertEquals(validRequest().length, waiting.held());
        producer.errorNext(new NotEnoughReplicasException("test over"));
        assertEquals(503, pending.get(60, TimeUnit.SECONDS).status());
        assertEquals(0, waiting.held());
    }

    @Test
    void aRequestRefusedByAdmissionOrFailingInItGivesItsRoomBack() throws Exception {
        VerificationFrontDoor door = frontDoor(Duration.ofMinutes(10));
        Answer refused = door.verify(
                validRequest(),
                Submitter.address("127.0.0.1"),
                () -> new Admission.Decision.Refuse(Answer.error(ErrorDocument.notReady())));
        assertEquals(503, refused.status());
        assertEquals(0, waiting.held());
        Admission broken = () -> {
            throw new IllegalStateException("admission failed");
        };
        assertThrows(
                IllegalStateException.class, () -> door.verify(validRequest(), Submitter.address("127.0.0.1"), broken));
        assertEquals(0, waiting.held());
        assertTrue(producer.history().isEmpty(), "nothing was published");
    }

    @Test
    void aReplyThatCannotBeReadIsStillAnsweredAndFinishedAsAnError() throws Exception {
        VerificationFrontDoor door = frontDoor(Duration.ofMinutes(10));
        AtomicReference<Answer> finished = new AtomicReference<>();
        Admission recording = () -> new Admission.Decision.Proceed(answer -> {
            finished.set(answer);
            return answer;
        });
        CompletableFuture<Answer> pending = verifyInBackground(door, recording);
        producer.completeNext();
        deadLetterForTheFirstRequest("not a document");
        Answer answer = pending.get(60, TimeUnit.SECONDS);
        assertEquals(500, answer.status(), answer.json());
        assertEquals(answer, finished.get(), "the admission saw the error, to give back what it took");
        assertEquals(0, waiting.held());
    }
}
