package dev.proofline.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.SigningKey;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.CorrelationIds;
import dev.proofline.contract.Headers;
import dev.proofline.contract.Topics;
import dev.proofline.engine.EngineSettings;
import dev.proofline.engine.VerificationEngine;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.InMemorySchemaRegistry;
import dev.proofline.schemas.VerificationIds;
import dev.proofline.schemas.avro.Receipt;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class VerificationTopologyTest {
    private static final Topics TOPICS = Topics.defaults();
    private static final int SIZE_LIMIT = 16 * 1024;

    private final KeyRing keys = KeyRing.of(SigningKey.generate("v1-test", new SecureRandom()));
    private final VerificationEngine engine =
            new VerificationEngine(EngineSettings.defaults().withMaxRequestBytes(SIZE_LIMIT), new Attestor(keys));
    private final AvroSerde<Receipt> serde = new AvroSerde<>(new InMemorySchemaRegistry(), Receipt.getClassSchema());
    private static final VerificationIds IDS = new VerificationIds("a test deployment's id key".getBytes());
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> input;
    private TestOutputTopic<String, Receipt> receipts;
    private TestOutputTopic<byte[], byte[]> deadLetters;

    @BeforeEach
    void start() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "proofline-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        Clock clock = Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);
        driver = new TopologyTestDriver(
                VerificationTopology.build(TOPICS, engine, serde, clock, Attribution.open(IDS)), props);
        input = driver.createInputTopic(TOPICS.input(), new ByteArraySerializer(), new ByteArraySerializer());
        receipts = driver.createOutputTopic(TOPICS.receipts(), new StringDeserializer(), serde.deserializer());
        deadLetters =
                driver.createOutputTopic(TOPICS.deadLetter(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] invoice(String task, String agent) {
        ObjectNode request = (ObjectNode) Conformance.json("requests/invoice-draft.json");
        request.put("task_id", task);
        request.put("agent_id", agent);
        return bytes(request.toString());
    }

    @Test
    void validRequestGivesOneSignedReceiptKeyedByAgent() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(Headers.CORRELATION_ID, bytes("corr-42"));
        input.pipeInput(new TestRecord<>(bytes("seller-7"), invoice("inv-1", "seller-7"), headers));
        List<TestRecord<String, Receipt>> out = receipts.readRecordsToList();
        assertEquals(1, out.size());
        assertTrue(deadLetters.isEmpty());
        TestRecord<String, Receipt> record = out.get(0);
        assertEquals("seller-7", record.key());
        Receipt receipt = record.value();
        assertEquals("fail", receipt.getResult());
        assertEquals("corr-42", receipt.getCorrelationId());
        assertEquals(
                "corr-42",
                new String(record.headers().lastHeader(Headers.CORRELATION_ID).value(), StandardCharsets.UTF_8));
        assertEquals(IDS.of(TOPICS.input(), 0, 0).toString(), receipt.getVerificationId());
        JsonNode signed = StrictJson.parse(receipt.getSignedJson());
        assertTrue(new ReceiptVerifier(keys.trustedKeys())
                .verifySignature(signed, AttestationContext.VERIFY)
                .valid());
        assertEquals(receipt.getOutputHash(), signed.get("output_hash").asString());
        assertEquals("2026-11-29T12:00:00.000000+00:00", receipt.getVerifiedAt());
    }

    @Test
    void aCorrelationIdNoReceiptCouldCarryIsDeadLetteredWithTheHeaderKept() {
        byte[] longest = new byte[CorrelationIds.MAX_BYTES];
        java.util.Arrays.fill(longest, (byte) 'c');
        byte[] tooLong = new byte[700_000]; // a receipt carries it twice: over a topic's default 1 MB
        java.util.Arrays.fill(tooLong, (byte) 'c');
        byte[] notUtf8 = {(byte) 0xff, (byte) 0xfe, 'a'};
        for (byte[] id : List.of(longest, tooLong, notUtf8)) {
            RecordHeaders headers = new RecordHeaders();
            headers.add(Headers.CORRELATION_ID, id);
            input.pipeInput(new TestRecord<>(bytes("seller-7"), invoice("inv-c", "seller-7"), headers));
        }
        List<TestRecord<String, Receipt>> answered = receipts.readRecordsToList();
        assertEquals(1, answered.size(), "the longest allowed id is answered");
        assertArrayEquals(
                longest,
                answered.get(0).headers().lastHeader(Headers.CORRELATION_ID).value());
        List<TestRecord<byte[], byte[]>> refused = deadLetters.readRecordsToList();
        assertEquals(2, refused.size());
        List<String> problems = List.of("is longer than 1024 bytes", "is not UTF-8");
        for (int i = 0; i < 2; i++) {
            JsonNode error = StrictJson.parse(refused.get(i).value());
            assertEquals("invalid_request", error.get("code").asString());
            assertEquals(
                    Headers.CORRELATION_ID,
                    error.get("fields").get(0).get("field").asString());
            assertEquals(
                    problems.get(i), error.get("fields").get(0).get("problem").asString());
            // The caller matches its answer by the header, exactly as it sent it.
            assertArrayEquals(
                    i == 0 ? tooLong : notUtf8,
                    refused.get(i).headers().lastHeader(Headers.CORRELATION_ID).value());
        }
    }

    @Test
    void twoCorrelationIdsAreDeadLetteredWhicheverComesFirst() {
        // Judging only the last let an invalid first one through, answered under an id its caller
        // never waited on; two valid ones leave which to answer under a guess.
        List<List<byte[]>> pairs = List.of(
                List.of(new byte[] {(byte) 0xff, (byte) 0xfe}, bytes("ok-1")),
                List.of(bytes("first"), bytes("second")));
        for (List<byte[]> ids : pairs) {
            RecordHeaders headers = new RecordHeaders();
            ids.forEach(id -> headers.add(Headers.CORRELATION_ID, id));
            input.pipeInput(new TestRecord<>(bytes("seller-7"), invoice("inv-d", "seller-7"), headers));
        }
        assertEquals(0, receipts.readRecordsToList().size());
        List<TestRecord<byte[], byte[]>> refused = deadLetters.readRecordsToList();
        assertEquals(2, refused.size());
        for (TestRecord<byte[], byte[]> deadLetter : refused) {
            JsonNode error = StrictJson.parse(deadLetter.value());
            assertEquals(Headers.CORRELATION_ID, error.at("/fields/0/field").asString());
            assertEquals("is sent more than once", error.at("/fields/0/problem").asString());
        }
    }

    @Test
    void aStrangersReceiptForABoundAgentIsSignedSaysItIsNotCountedAndNamesItsSubmitter() {
        Attribution bound = new Attribution() {
            @Override
            public VerificationIds ids() {
                return IDS;
            }

            @Override
            public String submitter(org.apache.kafka.common.header.Headers headers, byte[] value) {
                return "key:bob";
            }

            @Override
            public dev.proofline.engine.Scoring scoring(String agentId, String submitter) {
                return agentId.equals("seller-7") && submitter.equals("key:bob")
                        ? dev.proofline.engine.Scoring.notCounted("agent_id is bound to another caller's key")
                        : dev.proofline.engine.Scoring.COUNTED;
            }
        };
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "proofline-bound");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        Clock clock = Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);
        try (TopologyTestDriver bob =
                new TopologyTestDriver(VerificationTopology.build(TOPICS, engine, serde, clock, bound), props)) {
            bob.createInputTopic(TOPICS.input(), new ByteArraySerializer(), new ByteArraySerializer())
                    .pipeInput(bytes("seller-7"), invoice("inv-b", "seller-7"));
            Receipt receipt = bob.createOutputTopic(TOPICS.receipts(), new StringDeserializer(), serde.deserializer())
                    .readValue();
            assertEquals("key:bob", receipt.getSubmittedBy());
            assertEquals(false, receipt.getCounted());
            JsonNode signed = StrictJson.parse(receipt.getSignedJson());
            assertEquals(false, signed.get("scoring").get("counted").asBoolean());
            assertTrue(
                    new ReceiptVerifier(keys.trustedKeys())
                            .verifySignature(signed, AttestationContext.VERIFY)
                            .valid(),
                    "the scoring note is signed with the rest");
        }
        // Everyone else's receipts carry no scoring note at all: the reference shape, unchanged.
        input.pipeInput(bytes("seller-7"), invoice("inv-a", "seller-7"));
        Receipt open = receipts.readValue();
        assertTrue(open.getCounted());
        assertEquals("kafka", open.getSubmittedBy());
        assertTrue(StrictJson.parse(open.getSignedJson()).path("scoring").isMissingNode());
    }

    @Test
    void receiptWithoutAgentIsKeyedByTask() {
        ObjectNode request = (ObjectNode) Conformance.json("requests/invoice-final.json");
        request.remove("agent_id");
        input.pipeInput((byte[]) null, bytes(request.toString()));
        assertEquals("invoice-7731-final", receipts.readRecord().key());
    }

    private TestRecord<byte[], byte[]> onlyDeadLetter() {
        assertTrue(receipts.isEmpty(), "no receipt for an invalid request");
        List<TestRecord<byte[], byte[]>> out = deadLetters.readRecordsToList();
        assertEquals(1, out.size());
        return out.get(0);
    }

    /** The verification alone, writing to topics that take records of at most {@code limits}. */
    private TopologyTestDriver limitedDriver(Clock clock, PipelineListener listener, TopicLimits limits) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "proofline-limited-topics");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return new TopologyTestDriver(
                VerificationTopology.addTo(
                        new org.apache.kafka.streams.Topology(),
                        TOPICS,
                        engine,
                        serde,
                        clock,
                        listener,
                        Attribution.open(IDS),
                        EagerCommit.NEVER,
                        limits,
                        PassLimit.NONE),
                props);
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    @Test
    void nonJsonGoesToTheDeadLetterTopicWithOriginalsAndProvenance() {
        input.pipeInput(bytes("k1"), bytes("hello"));
        input.pipeInput(bytes("k2"), bytes("not json {"));
        deadLetters.readRecord(); // the first
        TestRecord<byte[], byte[]> dead = onlyDeadLetter();
        assertArrayEquals(bytes("k2"), dead.key());
        JsonNode error = StrictJson.parse(dead.value());
        assertEquals("invalid_request", error.get("code").asString());
        assertEquals("body", error.get("fields").get(0).get("field").asString());
        assertArrayEquals(
                bytes("not json {"),
                dead.headers().lastHeader(Headers.ORIGINAL_VALUE).value());
        assertEquals(TOPICS.input(), header(dead, Headers.SOURCE_TOPIC));
        assertEquals(
                0,
                ByteBuffer.wrap(dead.headers()
                                .lastHeader(Headers.SOURCE_PARTITION)
                                .value())
                        .getInt());
        assertEquals(
                1L,
                ByteBuffer.wrap(dead.headers().lastHeader(Headers.SOURCE_OFFSET).value())
                        .getLong());
        assertEquals("invalid_request", header(dead, Headers.ERROR_CODE));
    }

    /** A producer's own provenance headers do not travel with the dead letter: only Proofline's do. */
    @Test
    void forgedProvenanceHeadersAreDroppedFromTheDeadLetter() {
        org.apache.kafka.common.header.internals.RecordHeaders forged =
                new org.apache.kafka.common.header.internals.RecordHeaders();
        for (String name :
                List.of(Headers.SOURCE_TOPIC, Headers.ERROR_CODE, Headers.ORIGINAL_VALUE, Headers.SOURCE_OFFSET)) {
            forged.add(name, bytes("forged"));
        }
        forged.add("app.trace", bytes("kept"));
        input.pipeInput(new TestRecord<>(bytes("k"), bytes("not json"), forged));
        TestRecord<byte[], byte[]> dead = onlyDeadLetter();
        for (String name :
                List.of(Headers.SOURCE_TOPIC, Headers.ERROR_CODE, Headers.ORIGINAL_VALUE, Headers.SOURCE_OFFSET)) {
            int count = 0;
            for (org.apache.kafka.common.header.Header h : dead.headers().headers(name)) {
                assertTrue(!"forged".equals(new String(h.value(), StandardCharsets.UTF_8)), name);
                count++;
            }
            assertEquals(1, count, name);
        }
        assertEquals("kept", header(dead, "app.trace"));
    }

    /**
     * A receipts topic made before Proofline with less room than a receipt: the receipt would fail
     * the transaction and its request would be verified again for ever, so the request is
     * dead-lettered instead, and the receipts that fit are written as usual.
     */
    @Test
    void aReceiptLargerThanItsTopicTakesIsDeadLetteredInstead() {
        byte[] request = invoice("inv-big", "seller-9");
        input.pipeInput(new TestRecord<>(bytes("seller-9"), request, new RecordHeaders()));
        Receipt usual = receipts.readValue();
        int receiptBytes = usual.getSignedJson().getBytes(StandardCharsets.UTF_8).length;

        for (int room : new int[] {receiptBytes - 1, receiptBytes}) {
            java.util.concurrent.atomic.AtomicInteger tooLarge = new java.util.concurrent.atomic.AtomicInteger();
            PipelineListener counting = new PipelineListener() {
                @Override
                public void verified(String result, long nanos) {}

                @Override
                public void deadLettered(String errorCode) {}

                @Override
                public void receiptTooLarge() {
                    tooLarge.incrementAndGet();
                }
            };
            try (TopologyTestDriver smallDriver = limitedDriver(
                    Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC),
                    counting,
                    new TopicLimits(Receipts.RECORD_ROOM_BYTES + room, Integer.MAX_VALUE))) {
                RecordHeaders headers = new RecordHeaders();
                headers.add(Headers.CORRELATION_ID, bytes("corr-big"));
                smallDriver
                        .createInputTopic(TOPICS.input(), new ByteArraySerializer(), new ByteArraySerializer())
                        .pipeInput(new TestRecord<>(bytes("seller-9"), request, headers));
                List<TestRecord<String, Receipt>> written = smallDriver
                        .createOutputTopic(TOPICS.receipts(), new StringDeserializer(), serde.deserializer())
                        .readRecordsToList();
                List<TestRecord<byte[], byte[]>> dead = smallDriver
                        .createOutputTopic(
                                TOPICS.deadLetter(), new ByteArrayDeserializer(), new ByteArrayDeserializer())
                        .readRecordsToList();
                if (room < receiptBytes) {
                    assertTrue(written.isEmpty(), "no receipt the topic would refuse");
                    assertEquals(1, dead.size(), "one dead letter instead");
                    assertEquals("verification_failed", header(dead.get(0), Headers.ERROR_CODE));
                    assertEquals(1, tooLarge.get(), "counted apart from the verifier's own failures");
                    assertEquals("corr-big", header(dead.get(0), Headers.CORRELATION_ID), "its caller is answered");
                    assertArrayEquals(
                            request,
                            dead.get(0)
                                    .headers()
                                    .lastHeader(Headers.ORIGINAL_VALUE)
                                    .value());
                } else {
                    assertEquals(1, written.size(), "a receipt that fits is written");
                    assertTrue(dead.isEmpty());
                    assertEquals(usual.getSignedJson(), written.get(0).value().getSignedJson());
                    assertEquals(0, tooLarge.get());
                }
            }
        }
    }

    /**
     * A dead-letter topic created before Proofline may take less than a dead letter with its original:
     * what does not fit is left out and named, so the dead letter is still written (a refused write
     * would fail the transaction and the record would be retried for ever).
     */
    @Test
    void aDeadLetterLeavesOutWhatItsTopicCannotTake() {
        try (TopologyTestDriver smallDriver =
                limitedDriver(Clock.systemUTC(), PipelineListener.NONE, new TopicLimits(Integer.MAX_VALUE, 8192))) {
            TestInputTopic<byte[], byte[]> in =
                    smallDriver.createInputTopic(TOPICS.input(), new ByteArraySerializer(), new ByteArraySerializer());
            TestOutputTopic<byte[], byte[]> out = smallDriver.createOutputTopic(
                    TOPICS.deadLetter(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
            org.apache.kafka.common.header.internals.RecordHeaders small1 =
                    new org.apache.kafka.common.header.internals.RecordHeaders();
            small1.add("app.trace", bytes("kept"));
            in.pipeInput(new TestRecord<>(bytes("k"), bytes("not json"), small1));
            in.pipeInput(new TestRecord<>(bytes("k"), bytes("x".repeat(10_000)), small1));
            org.apache.kafka.common.header.internals.RecordHeaders big =
                    new org.apache.kafka.common.header.internals.RecordHeaders();
            big.add("app.trace", bytes("y".repeat(10_000)));
            big.add(Headers.CORRELATION_ID, bytes("c-1"));
            in.pipeInput(new TestRecord<>(bytes("k"), bytes("x".repeat(10_000)), big));
            org.apache.kafka.common.header.internals.RecordHeaders longId =
                    new org.apache.kafka.common.header.internals.RecordHeaders();
            longId.add(Headers.CORRELATION_ID, bytes("c".repeat(5_000)));
            in.pipeInput(new TestRecord<>(bytes("k".repeat(10_000)), bytes("x"), longId));

            TestRecord<byte[], byte[]> whole = out.readRecord();
            assertArrayEquals(
                    bytes("not json"),
                    whole.headers().lastHeader(Headers.ORIGINAL_VALUE).value());
            assertNull(whole.headers().lastHeader(Headers.ORIGINAL_OMITTED));

            TestRecord<byte[], byte[]> noValue = out.readRecord();
            assertNull(noValue.headers().lastHeader(Headers.ORIGINAL_VALUE));
            assertEquals("value", header(noValue, Headers.ORIGINAL_OMITTED));
            assertEquals("kept", header(noValue, "app.trace"));

            TestRecord<byte[], byte[]> bare = out.readRecord();
            assertEquals("value,headers", header(bare, Headers.ORIGINAL_OMITTED));
            assertNull(bare.headers().lastHeader("app.trace"));
            assertEquals("c-1", header(bare, Headers.CORRELATION_ID), "its caller still gets its answer");
            assertEquals("invalid_request", header(bare, Headers.ERROR_CODE));
            assertTrue(bare.value().length < 8192);

            TestRecord<byte[], byte[]> keyless = out.readRecord();
            assertEquals("value,headers,key", header(keyless, Headers.ORIGINAL_OMITTED));
            assertNull(keyless.key());
            assertNull(keyless.headers().lastHeader(Headers.CORRELATION_ID), "longer than any valid id");
        }
    }

    @Test
    void missingFieldAndUnknownRuleTypeAreDeadLetteredWithTheirFields() {
        input.pipeInput(bytes("{\"task_id\":\"t\",\"submitted_output\":{}}"));
        assertEquals(
                "expected_schema",
                StrictJson.parse(onlyDeadLetter().value())
                        .get("fields")
                        .get(0)
                        .get("field")
                        .asString());
        input.pipeInput(
                bytes(
                        "{\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"rules\":[{\"type\":\"avg\",\"field\":\"a\"}]}"));
        assertEquals(
                "rules[0].type",
                StrictJson.parse(onlyDeadLetter().value())
                        .get("fields")
                        .get(0)
                        .get("field")
                        .asString());
    }

    @Test
    void oversizeRecordIsDeadLetteredAsPayloadTooLarge() {
        byte[] big = bytes(
                "{\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":\"" + "x".repeat(SIZE_LIMIT) + "\"}");
        input.pipeInput(big);
        TestRecord<byte[], byte[]> dead = onlyDeadLetter();
        assertEquals("payload_too_large", header(dead, Headers.ERROR_CODE));
        assertArrayEquals(big, dead.headers().lastHeader(Headers.ORIGINAL_VALUE).value());
        assertEquals(413, StrictJson.parse(dead.value()).get("status").asInt());
    }

    @Test
    void emptyValueIsDeadLetteredNotDropped() {
        input.pipeInput(bytes("key"), (byte[]) null);
        assertEquals("invalid_request", header(onlyDeadLetter(), Headers.ERROR_CODE));
    }

    @Test
    void oneSchemaIsCompiledOnceForManyRecords() {
        for (int i = 0; i < 200; i++) {
            input.pipeInput(invoice("inv-" + i, "agent-" + (i % 7)));
        }
        assertEquals(200, receipts.readRecordsToList().size());
        assertEquals(1, engine.parser().schemas().compilations());
    }

    @Test
    void replayedOffsetGetsTheSameVerificationId() {
        input.pipeInput(invoice("inv-1", "a"));
        String first = receipts.readRecord().value().getVerificationId();
        stop();
        start(); // a fresh driver re-reads offset 0 of the same topic, as a restart after a crash would
        input.pipeInput(invoice("inv-1", "a"));
        assertEquals(first, receipts.readRecord().value().getVerificationId());
    }
}
