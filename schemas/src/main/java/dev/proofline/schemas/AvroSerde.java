package dev.proofline.schemas;

import dev.proofline.schemas.avro.Receipt;
import dev.proofline.schemas.avro.ScoreUpdate;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.ClassSecurityValidator;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A Kafka serde for one Avro record class in the Confluent wire format. Serializing registers the
 * record's schema under {@code <topic>-value} (once per topic); deserializing fetches the writer's
 * schema by id (once per id) and resolves it against this class's schema, so older and newer
 * compatible writers both read.
 */
public final class AvroSerde<T extends SpecificRecord> implements Serde<T> {
    static {
        // Avro refuses to load record classes it was not told to trust; these are ours.
        ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(
                ClassSecurityValidator.getGlobal(),
                ClassSecurityValidator.builder()
                        .add(Receipt.class)
                        .add(ScoreUpdate.class)
                        .build()));
    }

    private final SchemaRegistryClient registry;
    private final Schema readerSchema;
    private final Map<String, Integer> idByTopic = new ConcurrentHashMap<>();
    private final Map<Integer, SpecificDatumReader<T>> readerById = new ConcurrentHashMap<>();
    private final SpecificDatumWriter<T> writer;

    // Per thread, reused from record to record: a receipt is a few KiB, and a new stream per record
    // grew its array three or four times (a few per cent of the pipeline's allocation).
    private static final ThreadLocal<RecordBuffer> BUFFERS = ThreadLocal.withInitial(RecordBuffer::new);

    public AvroSerde(SchemaRegistryClient registry, Schema readerSchema) {
        this.registry = registry;
        this.readerSchema = readerSchema;
        this.writer = new SpecificDatumWriter<>(readerSchema);
    }

    public static String valueSubject(String topic) {
        return topic + "-value";
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, record) -> record == null ? null : serialize(topic, record);
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> bytes == null ? null : deserialize(bytes);
    }

    public byte[] serialize(String topic, T record) {
        int id = idByTopic.computeIfAbsent(topic, t -> registry.register(valueSubject(t), readerSchema));
        RecordBuffer out = BUFFERS.get();
        try {
            out.start(id);
            out.encoder = EncoderFactory.get().directBinaryEncoder(out, out.encoder);
            writer.write(record, out.encoder);
            out.encoder.flush();
            return out.take();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public T deserialize(byte[] framed) {
        int id = ConfluentWireFormat.schemaId(framed);
        SpecificDatumReader<T> reader =
                readerById.computeIfAbsent(id, i -> new SpecificDatumReader<>(registry.schemaById(i), readerSchema));
        BinaryDecoder decoder = DecoderFactory.get()
                .binaryDecoder(
                        framed, ConfluentWireFormat.HEADER_SIZE, framed.length - ConfluentWireFormat.HEADER_SIZE, null);
        try {
            return reader.read(null, decoder);
        } catch (IOException e) {
            throw new UncheckedIOException("value with schema id " + id + " is not valid Avro", e);
        }
    }

    /** One record's framed bytes as they are written; not synchronized, unlike ByteArrayOutputStream. */
    private static final class RecordBuffer extends OutputStream {
        private static final int INITIAL = 8192;
        /** A buffer grown past this for a large record is let go, not kept by the thread. */
        private static final int KEPT = 64 * 1024;

        private byte[] bytes = new byte[INITIAL];
        private int size;
        BinaryEncoder encoder;

        void start(int schemaId) throws IOException {
            size = 0;
            ConfluentWireFormat.writeHeader(this, schemaId);
        }

        byte[] take() {
            byte[] record = Arrays.copyOf(bytes, size);
            if (bytes.length > KEPT) {
                bytes = new byte[INITIAL];
            }
            size = 0;
            return record;
        }

        @Override
        public void write(int b) {
            ensure(1);
            bytes[size++] = (byte) b;
        }

        @Override
        public void write(byte[] source, int offset, int length) {
            ensure(length);
            System.arraycopy(source, offset, bytes, size, length);
            size += length;
        }

        private void ensure(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }
    }
}
