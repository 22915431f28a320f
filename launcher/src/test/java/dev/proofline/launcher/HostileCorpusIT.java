package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.StrictJson;
import dev.proofline.cli.ProoflineCli;
import dev.proofline.contract.ErrorCode;
import dev.proofline.contract.Headers;
import dev.proofline.contract.Topics;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.RegistryStore;
import dev.proofline.schemas.RestSchemaRegistryClient;
import dev.proofline.schemas.SchemaRegistryException;
import dev.proofline.schemas.avro.Receipt;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The hostile corpus ({@code src/test/resources/hostile/corpus.json}, by category) through all
 * three entry points: REST (status and the uniform document), Kafka (every record accounted for
 * exactly once, as a receipt or a dead letter, and the pipeline still answers), and the CLI (exit
 * code, the same document, no stack trace; in-process for every entry, as a real process once per
 * category). Expected outcomes are the corpus's own; nothing here is timed.
 */
@RunsAlone // budget-bound entries must be refused within the REST wait, which a second JVM's load can outlast
class HostileCorpusIT {
    @TempDir
    static Path tmp;

    static TestKafka kafka;
    static ProoflineNode node;
    static List<Entry> corpus;

    record Entry(String name, String category, byte[] body, JsonNode expect) {
        boolean expectsError(String code) {
            return expect.has("error") && expect.get("error").asString().equals(code);
        }

        /** Whether an answer (an error code, or a receipt's result) is what the corpus expects. */
        boolean accepts(String errorCode, String receiptResult) {
            if (expect.has("error_or_receipt")) {
                return true;
            }
            if (expect.has("error")) {
                return expect.get("error").asString().equals(errorCode);
            }
            return receiptResult != null && expect.get("receipt").asString().equals(receiptResult);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        corpus = load();
        kafka = TestKafka.start(tmp.resolve("broker"));
        node = TestNodes.start(kafka.bootstrapServers(), tmp);
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    static List<Entry> load() throws Exception {
        JsonNode manifest;
        try (InputStream in = HostileCorpusIT.class.getResourceAsStream("/hostile/corpus.json")) {
            manifest = StrictJson.MAPPER.readTree(in);
        }
        List<Entry> entries = new ArrayList<>();
        for (JsonNode e : manifest.get("entries")) {
            entries.add(new Entry(e.get("name").asString(), e.get("category").asString(), body(e), e.get("expect")));
        }
        return entries;
    }

    static byte[] body(JsonNode entry) {
        if (entry.has("body")) {
            return entry.get("body").asString().getBytes(StandardCharsets.UTF_8);
        }
        if (entry.has("body_base64")) {
            return Base64.getDecoder().decode(entry.get("body_base64").asString());
        }
        JsonNode g = entry.get("generate");
        StringBuilder out = new StringBuilder(g.path("prefix").asString(""));
        if (g.has("depth")) {
            int depth = g.get("depth").asInt();
            out.append(g.get("open").asString().repeat(depth))
                    .append(g.path("middle").asString(""))
                    .append(g.get("close").asString().repeat(depth));
        } else {
            String unit = g.get("unit").asString();
            String separator = g.path("separator").asString("");
            int count = g.get("count").asInt();
            for (int i = 0; i < count; i++) {
                out.append(i == 0 ? "" : separator).append(unit);
            }
        }
        return out.append(g.path("suffix").asString("")).toString().getBytes(StandardCharsets.UTF_8);
    }

    /** What every error answer must be: the uniform document, small, with no trace of Java inside. */
    static JsonNode assertUniformError(String text, String where) {
        assertTrue(text.length() < 32_768, where + ": an error of " + text.length() + " chars");
        assertFalse(
                text.contains("Exception") || text.contains("\tat ") || text.contains("java."), where + ": " + text);
        JsonNode doc = StrictJson.parse(text);
        for (String field : List.of("code", "message", "status", "retryable", "next_actions")) {
            assertTrue(doc.has(field), where + " lacks " + field + ": " + text);
        }
        assertTrue(ErrorCode.fromCode(doc.get("code").asString()) != null, where + ": unknown code " + text);
        return doc;
    }

    @Test
    void corpusCoversEveryCategoryWithAtLeastEightyInputs() {
        assertTrue(corpus.size() >= 80, "only " + corpus.size() + " inputs");
        Map<String, Integer> byCategory = new LinkedHashMap<>();
        corpus.forEach(e -> byCategory.merge(e.category(), 1, Integer::sum));
        for (String category : List.of(
                "malformed-json",
                "encoding",
                "numbers",
                "nesting-and-size",
                "schema-abuse",
                "ref-abuse",
                "regex",
                "rule-abuse",
                "field-abuse",
                "type-confusion",
                "agent-id")) {
            assertTrue(byCategory.getOrDefault(category, 0) > 0, "no entry of " + category + ": " + byCategory);
        }
    }

    @Test
    void restAnswersEveryInputWithItsExpectedOutcome() throws Exception {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        List<String> wrong = new ArrayList<>();
        for (Entry entry : corpus) {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(node.httpUrl() + "/verify/schema"))
                            .timeout(Duration.ofSeconds(60))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(entry.body()))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            String code = null;
            String result = null;
            if (response.statusCode() == 200) {
                result = StrictJson.parse(response.body()).get("result").asString();
            } else {
                JsonNode doc = assertUniformError(response.body(), "REST " + entry.name());
                code = doc.get("code").asString();
                assertEquals(response.statusCode(), doc.get("status").asInt(), entry.name());
            }
            if (!entry.accepts(code, result)) {
                wrong.add(entry.name() + ": expected " + entry.expect() + ", got " + response.statusCode() + " "
                        + (code != null ? code : result));
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        assertStillVerifies();
    }

    @Test
    void kafkaAccountsForEveryRecordExactlyOnce() throws Exception {
        Map<String, Object> producerConfig = new HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                8 * 1024 * 1024));
        Map<String, Entry> sent = new LinkedHashMap<>();
        int refusedByBroker = 0;
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(producerConfig, new ByteArraySerializer(), new ByteArraySerializer())) {
            Map<String, Future<RecordMetadata>> acks = new LinkedHashMap<>();
            for (Entry entry : corpus) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(Topics.DEFAULT_INPUT, null, entry.body());
                record.headers().add(Headers.CORRELATION_ID, entry.name().getBytes(StandardCharsets.UTF_8));
                acks.put(entry.name(), producer.send(record));
            }
            for (Entry entry : corpus) {
                try {
                    acks.get(entry.name()).get(60, TimeUnit.SECONDS);
                    sent.put(entry.name(), entry);
                } catch (java.util.concurrent.ExecutionException e) {
                    // Larger than the input topic takes: the broker refuses it, so it never enters.
                    assertTrue(e.getCause() instanceof RecordTooLargeException, entry.name() + ": " + e.getCause());
                    assertTrue(entry.expectsError("payload_too_large"), entry.name());
                    refusedByBroker++;
                }
            }
        }
        Map<String, List<String>> outcomes = readOutcomes(sent.keySet());
        List<String> wrong = new ArrayList<>();
        for (Entry entry : sent.values()) {
            List<String> got = outcomes.getOrDefault(entry.name(), List.of());
            if (got.size() != 1) {
                wrong.add(entry.name() + ": " + got.size() + " outcomes " + got);
                continue;
            }
            String outcome = got.get(0);
            boolean receipt = outcome.startsWith("receipt:");
            String value = outcome.substring(outcome.indexOf(':') + 1);
            if (!entry.accepts(receipt ? null : value, receipt ? value : null)) {
                wrong.add(entry.name() + ": expected " + entry.expect() + ", got " + outcome);
            }
        }
        System.out.printf(
                "hostile corpus over Kafka: %d sent, %d refused by the broker as too large, %d outcomes%n",
                sent.size(),
                refusedByBroker,
                outcomes.values().stream().mapToInt(List::size).sum());
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        assertStillVerifies();
    }

    /**
     * Headers no receipt could carry: a correlation id of 700 KB (a receipt holds it twice, past the
     * receipts topic's 1 MB) and one that is not UTF-8. Each valid request is dead-lettered with its
     * header as sent, so its caller still finds the answer, and the stream threads keep answering.
     * Before them, bytes that are no receipt are written to the receipts topic, which the score and
     * log topologies read: skipped, not fatal.
     */
    @Test
    void kafkaHeadersNoReceiptCouldCarryAndForeignReceiptsAreNotFatal() throws Exception {
        HttpResponse<InputStream> feed = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(node.httpUrl() + "/feed/receipts"))
                                .header("Accept", "text/event-stream")
                                .header(
                                        "Authorization",
                                        "Bearer " + node.operatorToken().orElseThrow())
                                .build(),
                        HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, feed.statusCode());
        try (KafkaProducer<byte[], byte[]> foreign = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (byte[] notAReceipt : List.of(
                    "not avro".getBytes(StandardCharsets.UTF_8),
                    new byte[] {0, 0, 0, 0, 1, 9, 9},
                    new byte[] {0, 0x7f, 0x7f, 0x7f, 0x7f, 9, 9})) { // a schema id nobody registered
                for (int partition = 0; partition < 3; partition++) {
                    foreign.send(new ProducerRecord<>(Topics.DEFAULT_RECEIPTS, partition, null, notAReceipt))
                            .get(60, TimeUnit.SECONDS);
                }
            }
        }
        try (InputStream events = feed.body()) {
            Thread.sleep(1_500); // a few of the feed's ticks, which see the foreign bytes first
            String verified = assertStillVerifies("hostile-feed-agent")
                    .get("verification_id")
                    .asString();
            assertTrue(
                    CompletableFuture.supplyAsync(() -> feedShows(events, verified))
                            .get(30, TimeUnit.SECONDS),
                    "the live feed goes on after bytes that are no receipt");
        }
        byte[] request = Files.readAllBytes(Conformance.file("requests/invoice-final.json"));
        byte[] tooLong = ("too-long-" + "c".repeat(700_000)).getBytes(StandardCharsets.UTF_8);
        byte[] notUtf8 = {'n', 'o', 't', '-', (byte) 0xff, (byte) 0xfe};
        byte[] ordinary = "after-hostile-headers".getBytes(StandardCharsets.UTF_8);
        Map<String, Object> producerConfig = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                4 * 1024 * 1024);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(producerConfig, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (byte[] id : List.of(tooLong, notUtf8, ordinary)) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(Topics.DEFAULT_INPUT, null, request);
                record.headers().add(Headers.CORRELATION_ID, id);
                producer.send(record).get(60, TimeUnit.SECONDS);
            }
        }
        // Outcomes are found by the header read as UTF-8, as the caller would read its own.
        String longName = new String(tooLong, StandardCharsets.UTF_8);
        String badName = new String(notUtf8, StandardCharsets.UTF_8);
        String okName = new String(ordinary, StandardCharsets.UTF_8);
        Map<String, List<String>> outcomes = readOutcomes(java.util.Set.of(longName, badName, okName));
        assertEquals(List.of("dead-letter:invalid_request"), outcomes.get(longName), "a 700 KB correlation id");
        assertEquals(List.of("dead-letter:invalid_request"), outcomes.get(badName), "a correlation id not UTF-8");
        assertEquals(List.of("receipt:pass"), outcomes.get(okName), "the request after them");
        assertStillVerifies();
    }

    /**
     * What makes "schema not found" proof of a foreign record: the embedded registry finds an id
     * another instance registered after it started (each instance keeps its own copy of the
     * registry's topic), and only an id nobody registered is 40403.
     */
    @Test
    void theEmbeddedRegistryFindsIdsRegisteredSinceItStartedAndOnlyThenSaysNotFound() throws Exception {
        // Records on the registry's topic that no registry wrote stop neither a start nor a lookup.
        try (KafkaProducer<String, String> foreign = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.StringSerializer())) {
            for (String notAVersion : List.of(
                    "not json",
                    "{\"subject\": 1}",
                    "[]",
                    // every field of a version, but no Avro schema: never remembered, so never parsed later
                    "{\"subject\":\"z\",\"version\":1,\"id\":2139062142,\"schema\":\"nope\"}",
                    // a second version whose first is missing: the subject has no version to answer with
                    "{\"subject\":\"hostile-gap\",\"version\":2,\"id\":2139062141,\"schema\":\"\\\"string\\\"\"}")) {
                foreign.send(new ProducerRecord<>(RegistryStore.TOPIC, "foreign", notAVersion))
                        .get(60, TimeUnit.SECONDS);
            }
        }
        try (RegistryStore other = RegistryStore.open(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), Optional.empty())) {
            String later = "{\"type\":\"record\",\"name\":\"Later\",\"fields\":[{\"name\":\"x\",\"type\":\"string\"}]}";
            HttpResponse<String> registered = postSchema("/subjects/hostile-later-value/versions", later);
            assertEquals(200, registered.statusCode(), registered.body());
            // References are refused, not ignored (a schema would be registered without what it names).
            HttpResponse<String> referring = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(node.httpUrl() + "/subjects/hostile-refs-value/versions"))
                                    .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                                    .POST(HttpRequest.BodyPublishers.ofString(StrictJson.MAPPER
                                            .createObjectNode()
                                            .put("schema", later)
                                            .set(
                                                    "references",
                                                    StrictJson.MAPPER
                                                            .createArrayNode()
                                                            .add(StrictJson.MAPPER
                                                                    .createObjectNode()
                                                                    .put("name", "Other")
                                                                    .put("subject", "other-value")
                                                                    .put("version", 1)))
                                            .toString()))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(422, referring.statusCode(), referring.body());
            assertEquals(
                    42201, StrictJson.parse(referring.body()).get("error_code").asInt(), referring.body());
            int laterId = StrictJson.parse(registered.body()).get("id").asInt();
            assertEquals(
                    "Later", other.schemaById(laterId).getName(), "registered by the node after this store started");

            // A subject the node read no first version of is not one: not found, not a failure.
            HttpResponse<String> gap = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(node.httpUrl() + "/subjects/hostile-gap/versions/latest"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(404, gap.statusCode(), gap.body());
            assertEquals(40401, StrictJson.parse(gap.body()).get("error_code").asInt(), gap.body());

            // A made-up id asked for first takes the node's look in the topic for this second: the id
            // registered next is still found at once, by a look that began after it was asked.
            HttpResponse<String> madeUp = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(node.httpUrl() + "/schemas/ids/2147000001"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(404, madeUp.statusCode(), madeUp.body());
            // And the other way: an id this store gives out is not one the node gave out, and the node finds it.
            int otherId = other.register(
                    "hostile-other-value",
                    org.apache.avro.SchemaBuilder.record("Other")
                            .fields()
                            .requiredLong("y")
                            .endRecord());
            assertTrue(otherId != laterId, "one id for two schemas");
            HttpResponse<String> found = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(node.httpUrl() + "/schemas/ids/" + otherId))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, found.statusCode(), found.body());
            assertTrue(found.body().contains("Other"), found.body());

            // Two stores, each caught up, registering different schemas at the same moment: two ids.
            try (RegistryStore third = RegistryStore.open(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), Optional.empty())) {
                java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(2);
                java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
                try {
                    java.util.concurrent.Future<Integer> left = pool.submit(() -> {
                        together.await();
                        return other.register(
                                "hostile-left-value",
                                org.apache.avro.SchemaBuilder.record("Left")
                                        .fields()
                                        .requiredInt("l")
                                        .endRecord());
                    });
                    java.util.concurrent.Future<Integer> right = pool.submit(() -> {
                        together.await();
                        return third.register(
                                "hostile-right-value",
                                org.apache.avro.SchemaBuilder.record("Right")
                                        .fields()
                                        .requiredInt("r")
                                        .endRecord());
                    });
                    int leftId = left.get(60, TimeUnit.SECONDS);
                    int rightId = right.get(60, TimeUnit.SECONDS);
                    assertTrue(leftId != rightId, "one id for two schemas registered at once: " + leftId);
                    assertEquals("Right", other.schemaById(rightId).getName());
                    assertEquals("Left", third.schemaById(leftId).getName());
                } finally {
                    pool.shutdownNow();
                }
            }

            SchemaRegistryException unknown = org.junit.jupiter.api.Assertions.assertThrows(
                    SchemaRegistryException.class, () -> other.schemaById(0x7f7f7f7f));
            assertEquals(40403, unknown.errorCode());
            SchemaRegistryException notAvro = org.junit.jupiter.api.Assertions.assertThrows(
                    SchemaRegistryException.class, () -> other.schemaById(2139062142));
            assertEquals(40403, notAvro.errorCode(), "a version whose schema is no Avro schema is skipped");
        }
    }

    /** The registry's answers to what Confluent's clients and consoles ask, codes included, as Confluent's. */
    @Test
    void theEmbeddedRegistryAnswersBrowsingAndBadVersionsAsConfluentDoes() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        java.util.function.Function<String, HttpResponse<String>> get = path -> {
            try {
                return http.send(
                        HttpRequest.newBuilder(URI.create(node.httpUrl() + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        assertEquals("[\"AVRO\"]", get.apply("/schemas/types").body());
        assertEquals("{\"mode\":\"READWRITE\"}", get.apply("/mode").body());
        JsonNode latest = StrictJson.parse(
                get.apply("/subjects/receipts-value/versions/LATEST").body());
        int id = latest.get("id").asInt();
        assertEquals(
                "[\"receipts-value\"]",
                get.apply("/schemas/ids/" + id + "/subjects").body());
        assertEquals(
                "[{\"subject\":\"receipts-value\",\"version\":"
                        + latest.get("version").asInt() + "}]",
                get.apply("/schemas/ids/" + id + "/versions").body());
        assertEquals(
                "record",
                StrictJson.parse(get.apply("/schemas/ids/" + id + "/schema").body())
                        .get("type")
                        .asString());
        assertEquals(
                "[]",
                get.apply("/subjects/receipts-value/versions/1/referencedby").body());
        assertEquals(
                "{\"compatibilityLevel\":\"BACKWARD\"}",
                get.apply("/config/receipts-value?defaultToGlobal=true").body());
        for (String[] refused : new String[][] {
            {"/subjects/receipts-value/versions/0", "42202"},
            {"/subjects/receipts-value/versions/-2", "42202"},
            {"/subjects/receipts-value/versions/x", "42202"},
            {"/subjects/receipts-value/versions/999", "40402"},
            {"/subjects/no-such-value/versions/1", "40401"},
            {"/schemas/ids/2147000000/versions", "40403"},
            // The id itself in digits of another script, or with a sign: no schema's id.
            {"/schemas/ids/" + fullWidth(id), "40403"},
            {"/schemas/ids/%2B" + id, "40403"},
            {"/config/receipts-value", "40408"},
        }) {
            HttpResponse<String> answer = get.apply(refused[0]);
            assertEquals(
                    refused[1],
                    StrictJson.parse(answer.body()).get("error_code").asString(),
                    refused[0]);
            assertEquals(Integer.parseInt(refused[1]) / 100, answer.statusCode(), refused[0]);
        }
        // Setting a subject's level, as kafkajs does before it registers: the one level checked is taken
        // (and then the subject has it), any other is 42203, as is a body that names none.
        java.util.function.BiFunction<String, String, HttpResponse<String>> put = (path, body) -> {
            try {
                return http.send(
                        HttpRequest.newBuilder(URI.create(node.httpUrl() + path))
                                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                                .PUT(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        HttpResponse<String> set = put.apply("/config/hostile-level-value", "{\"compatibility\":\"backward\"}");
        assertEquals(200, set.statusCode(), set.body());
        assertEquals("{\"compatibility\":\"BACKWARD\"}", set.body());
        assertEquals(
                "{\"compatibilityLevel\":\"BACKWARD\"}",
                get.apply("/config/hostile-level-value").body());
        assertEquals(
                200, put.apply("/config", "{\"compatibility\":\"BACKWARD\"}").statusCode());
        for (String body : List.of("{\"compatibility\":\"NONE\"}", "{\"compatibility\":\"sideways\"}", "{}", "[", "")) {
            HttpResponse<String> refused = put.apply("/config/hostile-level-value", body);
            assertEquals(422, refused.statusCode(), body + " -> " + refused.body());
            assertEquals(
                    42203, StrictJson.parse(refused.body()).get("error_code").asInt(), body);
        }
        // A subject outside ASCII comes back in UTF-8, as JSON must be, not as Latin-1 or "?".
        HttpResponse<byte[]> unicode = http.send(
                HttpRequest.newBuilder(URI.create(node.httpUrl() + "/subjects/%C3%A9t%C3%A9%E2%98%83/versions"))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(404, unicode.statusCode());
        JsonNode unicodeError = StrictJson.parse(unicode.body()); // strict: refuses bytes that are not UTF-8
        assertEquals(40401, unicodeError.get("error_code").asInt());
        assertTrue(unicodeError.get("message").asString().contains("\u00e9t\u00e9\u2603"), unicodeError.toString());
        HttpResponse<String> notAvro = postSchema("/subjects/receipts-value", "{\"type\":\"rec");
        assertEquals(422, notAvro.statusCode(), notAvro.body());
        assertEquals(42201, StrictJson.parse(notAvro.body()).get("error_code").asInt());
        // Text that is no JSON at all: said so with where, not with Jackson's words quoting the text.
        for (String path : new String[] {"/subjects/receipts-value", "/subjects/hostile-odd-value/versions"}) {
            HttpResponse<String> notJson = postSchema(path, "nope-secret-words");
            assertEquals(422, notJson.statusCode(), notJson.body());
            JsonNode notJsonError = StrictJson.parse(notJson.body());
            assertEquals(42201, notJsonError.get("error_code").asInt());
            String message = notJsonError.get("message").asString();
            assertTrue(message.startsWith("Invalid schema: the schema is not JSON"), message);
            assertFalse(message.contains("nope") || message.contains("Feature"), message);
        }
        // JSON Avro parses, but no schema: a field named twice.
        String twice = "{\"type\":\"record\",\"name\":\"T\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
                + "{\"name\":\"a\",\"type\":\"int\"}]}";
        HttpResponse<String> duplicate = postSchema("/subjects/receipts-value", twice);
        assertEquals(422, duplicate.statusCode(), duplicate.body());
        assertEquals(42201, StrictJson.parse(duplicate.body()).get("error_code").asInt());
        // Avro's parser throws plain Java exceptions for these (an unknown sort order, a number
        // where a name is due, a default that is no number): still the caller's schema, still 42201.
        for (String field : new String[] {
            "{\"name\":\"a\",\"type\":\"int\",\"order\":\"x\"}",
            "{\"name\":\"a\",\"type\":\"int\",\"order\":1}",
            "{\"name\":\"a\",\"type\":\"float\",\"default\":\"abc\"}"
        }) {
            String schema = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[" + field + "]}";
            for (String path : new String[] {"/subjects/receipts-value", "/subjects/hostile-odd-value/versions"}) {
                HttpResponse<String> odd = postSchema(path, schema);
                assertEquals(422, odd.statusCode(), path + " " + field + ": " + odd.body());
                assertEquals(
                        42201, StrictJson.parse(odd.body()).get("error_code").asInt(), odd.body());
            }
        }
    }

    /** {@code id} in full-width digits (U+FF10 to U+FF19), percent-encoded for a path. */
    private static String fullWidth(int id) {
        StringBuilder digits = new StringBuilder();
        for (char c : Integer.toString(id).toCharArray()) {
            digits.append((char) ('\uFF10' + (c - '0')));
        }
        return java.net.URLEncoder.encode(digits.toString(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A registry POST of {@code {"schema": schemaText}}, as Confluent's clients send it. */
    private static HttpResponse<String> postSchema(String path, String schemaText) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(node.httpUrl() + path))
                                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                                .POST(HttpRequest.BodyPublishers.ofString(StrictJson.MAPPER
                                        .createObjectNode()
                                        .put("schema", schemaText)
                                        .toString()))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    /** Every receipt and dead letter carrying a corpus correlation id, read committed, until all are in. */
    private static Map<String, List<String>> readOutcomes(java.util.Set<String> names) {
        int expected = names.size();
        AvroSerde<Receipt> receipts =
                new AvroSerde<>(new RestSchemaRegistryClient(node.httpUrl()), Receipt.getClassSchema());
        Map<String, List<String>> outcomes = new HashMap<>();
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "hostile-" + System.nanoTime(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(Topics.DEFAULT_RECEIPTS, Topics.DEFAULT_DEAD_LETTER));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            int seen = 0;
            long quietUntil = Long.MAX_VALUE;
            // Read until everything is in, then a little longer: a duplicate would show up then.
            while (System.nanoTime() < deadline && System.nanoTime() < quietUntil) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    Header id = record.headers().lastHeader(Headers.CORRELATION_ID);
                    if (id == null) {
                        continue;
                    }
                    String name = new String(id.value(), StandardCharsets.UTF_8);
                    if (!names.contains(name)) {
                        continue; // another test's request (REST callers' correlation ids)
                    }
                    String outcome = record.topic().equals(Topics.DEFAULT_RECEIPTS)
                            ? "receipt:" + receipts.deserialize(record.value()).getResult()
                            : "dead-letter:"
                                    + assertUniformError(
                                                    new String(record.value(), StandardCharsets.UTF_8),
                                                    "dead letter " + name)
                                            .get("code")
                                            .asString();
                    outcomes.computeIfAbsent(name, n -> new ArrayList<>()).add(outcome);
                    seen++;
                }
                if (seen >= expected && quietUntil == Long.MAX_VALUE) {
                    quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                }
            }
        }
        return outcomes;
    }

    @Test
    void cliGivesTheSameAnswerInProcessForEveryInputAndInARealProcessPerCategory() throws Exception {
        Path data = tmp.resolve("cli");
        List<String> wrong = new ArrayList<>();
        Map<String, Entry> firstOfCategory = new LinkedHashMap<>();
        for (Entry entry : corpus) {
            firstOfCategory.putIfAbsent(entry.category(), entry);
            Path file = Files.write(tmp.resolve(entry.name() + ".json"), entry.body());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = ProoflineCli.run(
                    List.of("verify", file.toString(), "--data-dir", data.toString()),
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            String outcome = outcome(
                    entry.name(), exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
            check(entry, outcome, wrong);
        }
        for (Entry entry : firstOfCategory.values()) {
            Path file = tmp.resolve(entry.name() + ".json");
            Path out = tmp.resolve(entry.name() + ".out");
            Path err = tmp.resolve(entry.name() + ".err");
            Process p = new ProcessBuilder(
                            Conformance.repoRoot().resolve("proofline").toString(),
                            "verify",
                            file.toString(),
                            "--data-dir",
                            data.toString())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), entry.name() + ": the CLI did not finish");
            check(entry, outcome(entry.name(), p.exitValue(), Files.readString(out), Files.readString(err)), wrong);
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    private static String outcome(String name, int exit, String out, String err) {
        if (exit == 0) {
            return "receipt:" + StrictJson.parse(out).get("result").asString();
        }
        assertEquals(2, exit, name + ": exit " + exit + " " + err);
        return "error:"
                + assertUniformError(err.strip(), "CLI " + name).get("code").asString();
    }

    private static void check(Entry entry, String outcome, List<String> wrong) {
        boolean receipt = outcome.startsWith("receipt:");
        String value = outcome.substring(outcome.indexOf(':') + 1);
        if (!entry.accepts(receipt ? null : value, receipt ? value : null)) {
            wrong.add("CLI " + entry.name() + ": expected " + entry.expect() + ", got " + outcome);
        }
    }

    /** After all of it, a good request still gets a signed receipt. */
    private static void assertStillVerifies() throws Exception {
        assertStillVerifies("test-seller-invoice-agent");
    }

    /** The same for {@code agent}; returns the receipt. */
    private static JsonNode assertStillVerifies(String agent) throws Exception {
        String request = Files.readString(Conformance.file("requests/invoice-final.json"))
                .replace("\"test-seller-invoice-agent\"", StrictJson.MAPPER.writeValueAsString(agent));
        HttpResponse<String> good = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(node.httpUrl() + "/verify/schema"))
                                .POST(HttpRequest.BodyPublishers.ofString(request))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, good.statusCode(), good.body());
        JsonNode receipt = StrictJson.parse(good.body());
        assertEquals("pass", receipt.get("result").asString());
        assertEquals(agent, receipt.get("agent_id").asString());
        return receipt;
    }

    /** Reads server-sent events until one carries {@code verificationId}; false if the stream ends. */
    private static boolean feedShows(InputStream events, String verificationId) {
        try {
            java.io.BufferedReader lines =
                    new java.io.BufferedReader(new java.io.InputStreamReader(events, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("data:") && line.contains(verificationId)) {
                    return true;
                }
            }
            return false;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
