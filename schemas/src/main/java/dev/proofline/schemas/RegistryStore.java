package dev.proofline.schemas;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaParseException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The storage of Proofline's embedded schema registry: subjects, versions and global ids, kept in
 * memory and persisted, one record per registered version, in a compacted topic, which is replayed
 * at start so ids survive restarts. Compatibility is BACKWARD, checked with Avro's own
 * {@link SchemaCompatibility}. A schema registered again gets its existing id.
 *
 * <p>An id or subject registered by another instance since this one started is read from the topic
 * when this one registers or meets an id it does not know, so "not found" for an id is final: the
 * topic has no such id. A new schema's id comes from its hash, so two instances registering
 * different schemas at the same moment give them different ids. A new version is written in a
 * transaction fenced per subject ({@link #register}), so two instances registering under one
 * subject at the same moment take one version each. It serves the embedded default, and scaled-out
 * deployments may use a Confluent-compatible registry through {@link RestSchemaRegistryClient}.
 */
public final class RegistryStore implements SchemaRegistryClient, AutoCloseable {
    public static final String TOPIC = "_proofline_schemas";
    public static final String COMPATIBILITY = "BACKWARD";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    /** At start the topic is read whole, however long the broker takes to answer (as before). */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** Later, a lookup waits this long at most: callers hold the store's lock meanwhile. */
    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(5);
    /** A registration waits this long at most to read its own committed record back. */
    private static final Duration READ_BACK_TIMEOUT = Duration.ofSeconds(30);
    /** How long a registration goes on trying. */
    private static final Duration REGISTRATION_TIMEOUT = Duration.ofSeconds(20);
    /** Tries of a registration that other registrations of its subject kept fencing. */
    private static final int REGISTRATION_ATTEMPTS = 5;
    /** The registry's HTTP route looks in the topic for unknown ids at most this often. */
    private static final long HTTP_CATCH_UP_NANOS = Duration.ofSeconds(1).toNanos();

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /**
     * Schema text as Avro's parser reads it (comments allowed, nesting to 1,000 levels), so the check
     * that it is JSON refuses nothing Avro would take.
     */
    private static final JsonMapper SCHEMA_TEXT = JsonMapper.builder(tools.jackson.core.json.JsonFactory.builder()
                    .enable(tools.jackson.core.json.JsonReadFeature.ALLOW_JAVA_COMMENTS)
                    .streamReadConstraints(tools.jackson.core.StreamReadConstraints.builder()
                            .maxNestingDepth(1000)
                            .build())
                    .build())
            .build();

    private static final Logger LOG = LoggerFactory.getLogger(RegistryStore.class);

    /** One registered version of a subject. */
    public record Version(String subject, int version, int id, String schema) {}

    private final Map<String, List<Version>> subjects = new TreeMap<>();
    private final Map<Integer, String> schemaById = new HashMap<>();
    /** Bootstrap servers and the like, for the producer each new registration writes with. */
    private final Map<String, Object> client;
    /** Reads the topic: all of it at start, then what was written since whenever an id is unknown. */
    private final KafkaConsumer<String, String> reader;
    /** At most this many HTTP questions wait for the next look at once; more get 50002 (try again). */
    private static final int MAX_WAITING_FOR_LOOK = 8;
    /** HTTP questions waiting for the next look now. */
    private int waitingForLook;
    /** Set by {@link #close}: a registration waiting in {@link #pause} gives up. */
    private boolean closed;
    /** When the HTTP route last began a look in the topic for an unknown id (System.nanoTime; 0: never). */
    private long lastHttpCatchUp;

    private RegistryStore(Map<String, Object> client, KafkaConsumer<String, String> reader) {
        this.client = java.util.Collections.unmodifiableMap(new HashMap<>(client)); // values may be null
        this.reader = reader;
    }

    /** Creates the topic if needed and replays it. {@code client} holds bootstrap servers and the like. */
    public static RegistryStore open(Map<String, Object> client, Optional<Short> replicationFactor) {
        return open(client, replicationFactor, Map.of());
    }

    /** The same, with topic settings for the registry's topic (e.g. {@code min.insync.replicas}). */
    public static RegistryStore open(
            Map<String, Object> client, Optional<Short> replicationFactor, Map<String, String> topicConfigs) {
        Map<String, String> configs = new java.util.HashMap<>(topicConfigs);
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Optional.of(1), replicationFactor).configs(configs)))
                    .all()
                    .get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException(
                        "cannot create " + TOPIC + ": " + e.getCause().getMessage(), e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        Map<String, Object> readerConfig = new HashMap<>(client);
        readerConfig.remove(ConsumerConfig.GROUP_ID_CONFIG);
        readerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        readerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // Each registration ends with a transaction marker, which a poll skips without returning: a
        // catch-up that has only markers left to read must not wait out a long fetch for them.
        readerConfig.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        KafkaConsumer<String, String> reader =
                new KafkaConsumer<>(readerConfig, new StringDeserializer(), new StringDeserializer());
        RegistryStore store = new RegistryStore(client, reader);
        try {
            reader.assign(List.of(PARTITION));
            reader.seekToBeginning(List.of(PARTITION));
            store.catchUp(START_TIMEOUT);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    /** Reads the topic up to its end as it is now, within {@code timeout}. */
    private synchronized void catchUp(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long end = reader.endOffsets(List.of(PARTITION), timeout).get(PARTITION);
        while (reader.position(PARTITION, timeout) < end) {
            if (System.nanoTime() > deadline) {
                throw new org.apache.kafka.common.errors.TimeoutException(
                        TOPIC + " not read to its end within " + timeout.toSeconds() + " s");
            }
            for (ConsumerRecord<String, String> record : reader.poll(Duration.ofMillis(20))) {
                if (record.value() != null) {
                    try {
                        JsonNode v = JSON.readTree(record.value());
                        parse(v.get("schema").asString()); // an id must lead to a schema a reader can use
                        remember(new Version(
                                v.get("subject").asString(),
                                v.get("version").asInt(),
                                v.get("id").asInt(),
                                v.get("schema").asString()));
                    } catch (RuntimeException e) {
                        // Not one this store wrote: skipped, so it can stop neither a start nor a lookup.
                        LOG.warn("ignored an unreadable record at {}-0@{}", TOPIC, record.offset());
                    }
                }
            }
        }
    }

    /**
     * Registers a schema under a subject, or answers the version it already has there.
     *
     * <p>A new version is written in a Kafka transaction whose id is made from the subject
     * ({@code proofline-registry-<hash>}): starting one fences any other registration of the subject
     * still open, on any instance, and waits for one that is ending. Only then is the topic read to
     * its end and the next version chosen, so two registrations of one subject at the same moment
     * take one version each; the one fenced tries again. The answer is the record as read back
     * from the topic, what every instance reads.
     */
    public synchronized Version register(String subject, String schemaText) {
        Schema schema = parse(schemaText);
        String canonical = schema.toString();
        catchUpOrRefuse(); // versions and ids another instance registered since are taken, not reused
        Optional<Version> known = registered(subject, canonical);
        if (known.isPresent()) {
            return known.get();
        }
        // Lookups wait on the store while a registration runs: a broker that does not answer ends it
        // within about this long (plus one try's own timeouts), not after every try has timed out.
        long deadline = System.nanoTime() + REGISTRATION_TIMEOUT.toNanos();
        String lastFailure = "";
        for (int attempt = 1; ; attempt++) {
            try {
                return registerFenced(subject, schema, canonical);
            } catch (AnotherTry failed) {
                lastFailure = failed.getMessage();
            }
            if (attempt == REGISTRATION_ATTEMPTS || System.nanoTime() - deadline > 0) {
                throw new SchemaRegistryException(
                        50001, "could not store the schema in " + attempt + " tries: " + lastFailure);
            }
            // Instances that start together register the same subjects: a pause of its own lets one
            // finish rather than each fencing the other again.
            pause(Duration.ofMillis(
                    java.util.concurrent.ThreadLocalRandom.current().nextLong(20, 200)));
        }
    }

    /**
     * A try that Kafka ended (fenced by another registration of the subject, or a commit whose
     * answer was an error): the next try reads the topic first, so a commit that did happen is
     * found there rather than written twice.
     */
    private static final class AnotherTry extends RuntimeException {
        AnotherTry(Throwable cause) {
            super(
                    cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage(),
                    null,
                    false,
                    false);
        }
    }

    /** One try of {@link #register}; {@link AnotherTry} when Kafka ended it. */
    private Version registerFenced(String subject, Schema schema, String canonical) {
        KafkaProducer<String, String> fenced = null;
        boolean open = false;
        try {
            fenced = transactionalProducer(registrationTransactionId(subject));
            fenced.initTransactions();
            catchUpOrRefuse();
            Optional<Version> known = registered(subject, canonical);
            if (known.isPresent()) {
                return known.get(); // registered by another instance meanwhile, or by a try whose answer was lost
            }
            Version created = next(subject, schema, canonical);
            fenced.beginTransaction();
            open = true;
            long offset = fenced.send(record(created)).get().offset();
            fenced.commitTransaction();
            open = false;
            readBack(offset);
            Optional<Version> stored = registered(subject, canonical).filter(created::equals);
            if (stored.isEmpty()) {
                // Committed, yet not what the topic says (a writer outside these transactions took the
                // version first): writing it again would only add another record for that version.
                throw new SchemaRegistryException(
                        50001, "could not store the schema: another writer of the registry's topic took its version");
            }
            return stored.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryException(50001, "interrupted while storing the schema");
        } catch (ExecutionException | org.apache.kafka.common.KafkaException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            if (refusedForGood(cause)) {
                throw new SchemaRegistryException(50001, "could not store the schema: " + cause.getMessage());
            }
            throw new AnotherTry(cause);
        } finally {
            // A registration left open holds every reader of the topic until it is aborted.
            if (open) {
                try {
                    fenced.abortTransaction();
                } catch (RuntimeException alreadyEnded) {
                    // fenced, or the broker is gone: the transaction times out on its own
                }
            }
            if (fenced != null) {
                fenced.close(Duration.ofSeconds(5)); // a bare close() waits for ever when Kafka is gone
            }
        }
    }

    /** Waits without holding the store: lookups go on meanwhile, and the store may be closed. */
    private void pause(Duration pause) {
        try {
            wait(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryException(50001, "interrupted while storing the schema");
        }
        if (closed) {
            throw new SchemaRegistryException(50002, "the registry is shutting down");
        }
    }

    /** The version of {@code subject} that holds this schema, if one does. */
    private Optional<Version> registered(String subject, String canonical) {
        return subjects.getOrDefault(subject, List.of()).stream()
                .filter(v -> v.schema().equals(canonical))
                .findFirst();
    }

    /** The subject's next version for a schema it does not hold yet; 40901 if it is incompatible. */
    private Version next(String subject, Schema schema, String canonical) {
        List<Version> versions = subjects.getOrDefault(subject, List.of());
        if (!versions.isEmpty() && !compatible(schema, versions.get(versions.size() - 1))) {
            throw new SchemaRegistryException(
                    40901,
                    "Schema being registered is incompatible with an earlier schema for subject \"" + subject
                            + "\" (compatibility " + COMPATIBILITY + ")");
        }
        int id = schemaById.entrySet().stream()
                .filter(e -> e.getValue().equals(canonical))
                .mapToInt(Map.Entry::getKey)
                .findFirst()
                .orElseGet(() -> freeIdFor(canonical));
        return new Version(subject, versions.size() + 1, id, canonical);
    }

    private static ProducerRecord<String, String> record(Version v) {
        String value = JSON.createObjectNode()
                .put("subject", v.subject())
                .put("version", v.version())
                .put("id", v.id())
                .put("schema", v.schema())
                .toString();
        return new ProducerRecord<>(TOPIC, v.subject() + "/" + v.version(), value);
    }

    /**
     * Reads the topic until the record at {@code offset} has been read. A commit returns before its
     * markers are written, and until they are a {@code read_committed} reader stops short of it.
     */
    private void readBack(long offset) {
        long deadline = System.nanoTime() + READ_BACK_TIMEOUT.toNanos();
        while (true) {
            catchUpOrRefuse();
            long position;
            try {
                position = reader.position(PARTITION, LOOKUP_TIMEOUT);
            } catch (org.apache.kafka.common.KafkaException e) {
                throw new SchemaRegistryException(50002, "the registry's topic cannot be read now");
            }
            if (position > offset) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new SchemaRegistryException(
                        50002,
                        "the schema was stored but not read back within " + READ_BACK_TIMEOUT.toSeconds() + " s");
            }
            pause(Duration.ofMillis(10));
        }
    }

    private KafkaProducer<String, String> transactionalProducer(String transactionalId) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        // A registration killed mid-transaction holds every reader of the topic until the broker
        // aborts it: at most this long, plus the broker's sweep for timed-out transactions (10 s).
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 5_000);
        // Starting a transaction under a new id takes a retry or two; Kafka's 100 ms backoff would
        // make each registration cost a tenth of a second more.
        config.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 10);
        // Registrations wait under the store's lock: a broker that is gone fails them in seconds, not minutes.
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        DeliveryDeadline.within(config, Duration.ofSeconds(10));
        // Two stores in one JVM (tests, or two deployments) must not share a client id in JMX.
        config.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId + "-" + java.util.UUID.randomUUID());
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    /** The transactional id every registration under {@code subject} writes with. */
    static String registrationTransactionId(String subject) {
        return "proofline-registry-" + java.util.HexFormat.of().formatHex(sha256(TOPIC + "\u0000" + subject), 0, 16);
    }

    /**
     * Whether trying again cannot help: the principal may not write, or the settings are wrong.
     * Anything else (fenced by another registration of the subject, which Kafka may also report as
     * an unexpected error of the commit; a broker that went away) is worth another try.
     */
    private static boolean refusedForGood(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.apache.kafka.common.errors.AuthorizationException
                    || t instanceof org.apache.kafka.common.errors.AuthenticationException
                    || t instanceof org.apache.kafka.common.config.ConfigException
                    || t instanceof org.apache.kafka.common.errors.UnsupportedVersionException) {
                return true;
            }
        }
        return false;
    }

    /**
     * A new schema's id, taken from its own hash rather than from a counter: two instances that
     * register different schemas at the same moment, each caught up with the other's past, would
     * both take "the highest id + 1", one id for two schemas, and records framed with it would be
     * read with the wrong writer's schema. From the hash they differ but for a 1 in 2^31 chance; an
     * id already taken here moves on to the next free one.
     */
    private int freeIdFor(String canonical) {
        int id = java.nio.ByteBuffer.wrap(sha256(canonical)).getInt() & Integer.MAX_VALUE;
        while (id == 0 || schemaById.containsKey(id)) {
            id = (id + 1) & Integer.MAX_VALUE;
        }
        return id;
    }

    private static byte[] sha256(String text) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }

    public synchronized boolean isCompatible(String subject, String version, String schemaText) {
        return compatible(parse(schemaText), version(subject, version));
    }

    public synchronized Set<String> subjects() {
        return new java.util.TreeSet<>(subjects.keySet()); // a copy, sorted: catching up may add subjects meanwhile
    }

    public synchronized List<Integer> versions(String subject) {
        List<Version> versions = subjects.get(subject);
        if (versions == null) {
            throw new SchemaRegistryException(40401, "Subject '" + subject + "' not found.");
        }
        return versions.stream().map(Version::version).toList();
    }

    /**
     * A version by number, or {@code latest} (any case, or -1), as Confluent's registry reads it: a
     * number below 1 (but -1) or not a number at all is no version id (42202), one past the last is
     * not found (40402).
     */
    public synchronized Version version(String subject, String version) {
        List<Version> versions = subjects.get(subject);
        if (versions == null) {
            throw new SchemaRegistryException(40401, "Subject '" + subject + "' not found.");
        }
        String id = version.trim();
        if (id.equalsIgnoreCase("latest") || id.equals("-1")) {
            return versions.get(versions.size() - 1);
        }
        int n;
        try {
            n = Integer.parseInt(id);
        } catch (NumberFormatException e) {
            n = 0;
        }
        if (n < 1) {
            throw new SchemaRegistryException(
                    42202,
                    "The specified version '" + version + "' is not a valid version id. Allowed values are between"
                            + " [1, 2^31-1] and the string \"latest\"");
        }
        if (n > versions.size()) {
            throw new SchemaRegistryException(40402, "Version " + version + " not found.");
        }
        return versions.get(n - 1);
    }

    /** Every subject version registered with this schema id, subjects in name order. */
    public List<Version> versionsWithId(int id) {
        schemaText(id); // 40403 for an id not known here, after catching up as the route does
        synchronized (this) {
            return subjects.values().stream()
                    .flatMap(List::stream)
                    .filter(v -> v.id() == id)
                    .toList();
        }
    }

    /**
     * The schema with this id, for the registry's HTTP route. An id not known here may have been
     * registered by another instance since: the answer waits for a look in the topic that began
     * after it was asked. Looks are made at most once a second (anyone may ask for made-up ids, and
     * each look is a request to the broker), and every question waiting shares the next one, so a
     * caller asking for made-up ids cannot use up the looks an id just registered needs.
     */
    public String schemaText(int id) {
        long asked = System.nanoTime();
        while (true) {
            long wait;
            synchronized (this) {
                String schema = schemaById.get(id);
                if (schema != null) {
                    return schema;
                }
                if (lastHttpCatchUp != 0 && lastHttpCatchUp - asked >= 0) {
                    // A look that began after the question found nothing: the topic has no such id.
                    throw new SchemaRegistryException(40403, "Schema " + id + " not found");
                }
                long now = System.nanoTime();
                wait = lastHttpCatchUp == 0 ? 0 : lastHttpCatchUp + HTTP_CATCH_UP_NANOS - now;
                if (wait <= 0) {
                    long before = lastHttpCatchUp;
                    lastHttpCatchUp = now == 0 ? 1 : now; // 0 means never
                    try {
                        catchUpOrRefuse();
                    } catch (SchemaRegistryException cannotRead) {
                        lastHttpCatchUp = before; // no look was made: nobody may take its "not found"
                        throw cannotRead;
                    }
                    continue;
                }
                if (waitingForLook >= MAX_WAITING_FOR_LOOK) {
                    // Anyone may ask for made-up ids: past this many waiting, a question is not held.
                    throw new SchemaRegistryException(50002, "the registry's topic cannot be read now");
                }
                waitingForLook++;
            }
            try {
                java.util.concurrent.locks.LockSupport.parkNanos(wait);
            } finally {
                synchronized (this) {
                    waitingForLook--;
                }
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new SchemaRegistryException(50002, "interrupted while looking for the schema");
            }
        }
    }

    /**
     * The schema with this id, for reading records. An id not known here is always looked for in
     * the topic first, so "not found" (40403) is final: the topic has no such id, and a record
     * framed with it is not Proofline's.
     */
    @Override
    public Schema schemaById(int id) {
        return parse(find(id));
    }

    /** A known id's schema; else one the topic gained since; else 40403. */
    private synchronized String find(int id) {
        String schema = schemaById.get(id);
        if (schema == null) {
            catchUpOrRefuse();
            schema = schemaById.get(id);
        }
        if (schema == null) {
            throw new SchemaRegistryException(40403, "Schema " + id + " not found");
        }
        return schema;
    }

    /** {@link #catchUp}, or a registry error that says the answer is not known now (50002). */
    private void catchUpOrRefuse() {
        try {
            catchUp(LOOKUP_TIMEOUT);
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new SchemaRegistryException(50002, "the registry's topic cannot be read now");
        }
    }

    @Override
    public int register(String subject, Schema schema) {
        return register(subject, schema.toString()).id();
    }

    @Override
    public synchronized void close() {
        closed = true;
        reader.close(Duration.ofSeconds(2));
    }

    private void remember(Version v) {
        String known = schemaById.get(v.id());
        if (known != null && !known.equals(v.schema())) {
            // Two registrations clashed, or someone else wrote the topic: the id keeps its first schema.
            LOG.warn("ignored a second schema for id {} in {}", v.id(), TOPIC);
            return;
        }
        // A subject exists once it has a version: one whose first version was skipped (above) has
        // none to answer "latest" with.
        List<Version> versions = subjects.get(v.subject());
        if ((versions == null ? 0 : versions.size()) + 1 == v.version()) {
            subjects.computeIfAbsent(v.subject(), s -> new ArrayList<>()).add(v);
        }
        schemaById.put(v.id(), v.schema());
    }

    private static boolean compatible(Schema candidate, Version latest) {
        // BACKWARD: consumers on the new schema can read data written with the latest one.
        return SchemaCompatibility.checkReaderWriterCompatibility(candidate, parse(latest.schema()))
                        .getType()
                == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE;
    }

    private static Schema parse(String text) {
        try {
            SCHEMA_TEXT.readTree(text);
        } catch (tools.jackson.core.JacksonException notJson) {
            // Avro's own message is Jackson's, which quotes the text and names Jackson's settings.
            tools.jackson.core.TokenStreamLocation at = notJson.getLocation();
            throw new SchemaRegistryException(
                    42201,
                    "Invalid schema: the schema is not JSON"
                            + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
        }
        try {
            return new Schema.Parser().parse(text);
        } catch (SchemaParseException e) {
            throw new SchemaRegistryException(42201, "Invalid schema: " + reason(e));
        } catch (org.apache.avro.AvroRuntimeException e) {
            // Parsed JSON, but no schema: a duplicate field, a nested union, a default of the wrong type.
            throw new SchemaRegistryException(
                    42201, "Invalid schema: " + (e.getMessage() == null ? "not an Avro schema" : e.getMessage()));
        } catch (RuntimeException e) {
            // Avro's parser also throws plain Java exceptions for some bad schemas (an unknown sort
            // order, a number where text is due); what they say is about Avro's code, not the schema.
            throw new SchemaRegistryException(42201, "Invalid schema: not an Avro schema");
        }
    }

    /** The schema's canonical text (as registered) for a lookup; 42201 when it is no Avro schema. */
    public static String canonical(String text) {
        return parse(text).toString();
    }

    /** Avro's reason without the class name of the JSON parser's exception it may wrap. */
    static String reason(SchemaParseException e) {
        String message = e.getMessage() == null ? "not an Avro schema" : e.getMessage();
        return message.replaceFirst("^(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error): ", "");
    }
}
