package dev.proofline.schemas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proofline.schemas.avro.Receipt;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

class AvroSerdeTest {
    private final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    private final AvroSerde<Receipt> serde = new AvroSerde<>(registry, Receipt.getClassSchema());

    /**
     * Each value is the magic byte, the schema id and Avro's own binary encoding, whatever was
     * written before it on the thread: a small record after one far larger than the reused buffer.
     */
    @Test
    void everyRecordIsFramedAvroWhateverCameBefore() throws Exception {
        for (int length : new int[] {10, 200_000, 3, 9_000, 70_000, 0}) {
            Receipt receipt = TestReceipts.carrying("id", "task", "agent", "x".repeat(length) + "é");
            byte[] framed = serde.serialize("receipts", receipt);
            assertEquals(ConfluentWireFormat.MAGIC, framed[0]);
            int id = ByteBuffer.wrap(framed, 1, 4).getInt();
            assertEquals(id, registry.register(AvroSerde.valueSubject("receipts"), Receipt.getClassSchema()));
            assertArrayEquals(plainAvro(receipt), java.util.Arrays.copyOfRange(framed, 5, framed.length));
            assertEquals(receipt, serde.deserialize(framed));
        }
    }

    private static byte[] plainAvro(Receipt receipt) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<Receipt>(Receipt.getClassSchema()).write(receipt, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
