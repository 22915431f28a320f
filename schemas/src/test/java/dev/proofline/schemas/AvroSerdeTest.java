package dev.proofline.schemas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.schemas.avro.Receipt;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
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

    /**
     * Anyone who can write to the receipts topic can frame ten bytes with a real schema id and claim a
     * string of 2 GiB. Decoding must fail as an ordinary exception, which the stream threads skip with
     * a log line, and never by allocating what was claimed (an OutOfMemoryError passes every handler
     * and kills the thread, and its replacement reads the same record).
     */
    @Test
    void aClaimedLengthLongerThanTheRecordFailsWithoutAllocatingIt() {
        int id = registry.register(AvroSerde.valueSubject("receipts"), Receipt.getClassSchema());
        byte[][] lengths = {
            {(byte) 0xEE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F}, // 2,147,483,639 (Java's largest array)
            {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x04}, // 536,870,912
            {
                (byte) 0xFE,
                (byte) 0xFF,
                (byte) 0xFF,
                (byte) 0xFF,
                (byte) 0xFF,
                (byte) 0xFF,
                (byte) 0xFF,
                (byte) 0xFF,
                (byte) 0xFF,
                0x01
            }, // Long.MAX_VALUE
            {0x14} // 10, with 3 bytes left
        };
        for (byte[] length : lengths) {
            ByteBuffer framed = ByteBuffer.allocate(5 + length.length + 3);
            framed.put(ConfluentWireFormat.MAGIC).putInt(id).put(length).put(new byte[] {'a', 'b', 'c'});
            long before = allocatedByThisThread();
            assertThrows(RuntimeException.class, () -> serde.deserialize(framed.array()));
            long allocated = allocatedByThisThread() - before;
            assertTrue(allocated < 1 << 20, allocated + " bytes allocated for a claim of " + length.length + " bytes");
        }
        // The same claim in a later field, after a whole verification_id.
        ByteBuffer later = ByteBuffer.allocate(5 + 3 + 5);
        later.put(ConfluentWireFormat.MAGIC)
                .putInt(id)
                .put(new byte[] {0x04, 'i', 'd'})
                .put(lengths[0]);
        assertThrows(RuntimeException.class, () -> serde.deserialize(later.array()));
    }

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    private static byte[] plainAvro(Receipt receipt) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<Receipt>(Receipt.getClassSchema()).write(receipt, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
