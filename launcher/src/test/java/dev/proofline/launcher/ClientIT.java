package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.client.InvalidReceiptException;
import dev.proofline.client.ProoflineClient;
import dev.proofline.client.ProoflineException;
import dev.proofline.client.VerifiedReceipt;
import dev.proofline.client.VerifiedReceiptStream;
import dev.proofline.client.AgentCardKeys;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.RestSchemaRegistryClient;
import dev.proofline.schemas.Topics;
import dev.proofline.schemas.avro.Receipt;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java SDK against a running Proofline: over Kafka and over REST, and as a stream of verified receipts. */
class ClientIT {
    @TempDir
    static Path tmp;
    static TestKafka kafka;
    static ProoflineNode node;

    @BeforeAll
    static void start() throws Exception {
        kafka = TestKafka.start(tmp.resolve("broker"));
        node = ProoflineNode.start(ProoflineConfig.load(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "http.port", "0", "data.dir", tmp.resolve("node").toString()), Map.of()), tmp.resolve("unused"));
    }

    @AfterAll
    static void stop() {
        node.close();
        kafka.close();
    }

    private static String request(String name) throws Exception {
        return Files.readString(Conformance.file(name));
    }

    @Test
    void publishAwaitAndVerifyOverKafkaAndOverRest() throws Exception {
        try (ProoflineClient overKafka = ProoflineClient.overKafka(node.bootstrapServers(), node.httpUrl());
             ProoflineClient overRest = ProoflineClient.overRest(node.httpUrl())) {
            for (ProoflineClient client : List.of(overKafka, overRest)) {
                VerifiedReceipt draft = client.verify(request("requests/invoice-draft.json")).get(30, TimeUnit.SECONDS);
                assertEquals("fail", draft.result());
                assertEquals("invoice-7731-draft", draft.taskId());
                VerifiedReceipt fin = client.verify(request("requests/invoice-final.json")).get(30, TimeUnit.SECONDS);
                assertTrue(fin.passed());
                assertEquals(fin.verificationId(), client.verifyOffline(fin.signedJson()).verificationId());
            }
        }
    }

    @Test
    void refusalsArriveAsProoflineExceptionsOverBothPaths() throws Exception {
        String invalid = "{\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"rules\":[{\"type\":\"mean\",\"field\":\"a\"}]}";
        try (ProoflineClient overKafka = ProoflineClient.overKafka(node.bootstrapServers(), node.httpUrl());
             ProoflineClient overRest = ProoflineClient.overRest(node.httpUrl())) {
            for (ProoflineClient client : List.of(overKafka, overRest)) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> client.verify(invalid).get(30, TimeUnit.SECONDS));
                ProoflineException refused = assertInstanceOf(ProoflineException.class, e.getCause());
                assertEquals("invalid_request", refused.code());
                assertEquals(422, refused.status());
                assertTrue(refused.document().contains("rules[0].type"), refused.document());
            }
        }
    }

    @Test
    void aReceiptWithOneByteChangedIsReportedInvalidNotDelivered() throws Exception {
        List<VerifiedReceipt> delivered = new CopyOnWriteArrayList<>();
        List<InvalidReceiptException> reported = new CopyOnWriteArrayList<>();
        RestSchemaRegistryClient registry = new RestSchemaRegistryClient(node.httpUrl());
        try (VerifiedReceiptStream stream = new VerifiedReceiptStream(Map.of("bootstrap.servers", node.bootstrapServers()),
                Topics.RECEIPTS, null, registry, AgentCardKeys.of(node.httpUrl()), false,
                new VerifiedReceiptStream.Listener() {
                    public void onReceipt(VerifiedReceipt receipt, String correlationId) {
                        delivered.add(receipt);
                    }

                    public void onInvalid(InvalidReceiptException problem, String correlationId) {
                        reported.add(problem);
                    }
                });
             ProoflineClient client = ProoflineClient.overRest(node.httpUrl())) {
            VerifiedReceipt genuine = client.verify(request("requests/invoice-final.json")).get(30, TimeUnit.SECONDS);
            String forged = genuine.signedJson().replace("\"result\":\"pass\"", "\"result\":\"fa1l\"");
            assertTrue(!forged.equals(genuine.signedJson()));
            Receipt record = Receipt.newBuilder().setVerificationId(genuine.verificationId()).setTaskId("forged")
                    .setAgentId(genuine.agentId()).setResult("pass").setVerifiedAt("x").setKeyVersion("x").setOutputHash("x")
                    .setSchemaHash("x").setRulesHash("x").setCorrelationId(null).setSignedJson(forged).build();
            AvroSerde<Receipt> serde = new AvroSerde<>(registry, Receipt.getClassSchema());
            try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", node.bootstrapServers()),
                    new StringSerializer(), new ByteArraySerializer())) {
                producer.send(new ProducerRecord<>(Topics.RECEIPTS, "forger", serde.serialize(Topics.RECEIPTS, record))).get();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (reported.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(1, reported.size(), "the forged receipt is reported");
            assertTrue(reported.get(0).getMessage().contains("signature does not match"), reported.get(0).getMessage());
            assertTrue(delivered.stream().noneMatch(r -> r.signedJson().equals(forged)), "and never delivered as valid");
            assertTrue(delivered.stream().anyMatch(r -> r.verificationId().equals(genuine.verificationId())),
                    "the genuine receipt was delivered");
            assertThrows(InvalidReceiptException.class, () -> client.verifyOffline(forged));
        }
    }
}
