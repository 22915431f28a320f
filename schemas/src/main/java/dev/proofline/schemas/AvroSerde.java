package dev.proofline.schemas;

import dev.proofline.schemas.avro.Receipt;
import dev.proofline.schemas.avro.ScoreUpdate;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
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
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(512);
            ByteBuffer header = ByteBuffer.allocate(ConfluentWireFormat.HEADER_SIZE);
            ConfluentWireFormat.writeHeader(header, id);
            out.write(header.array());
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
            writer.write(record, encoder);
            encoder.flush();
            return out.toByteArray();
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
}
