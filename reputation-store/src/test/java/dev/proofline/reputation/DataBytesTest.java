package dev.proofline.reputation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Random;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** The histories already stored were written by {@link DataOutputStream}: its bytes are the reference. */
class DataBytesTest {
    private static final String[] SAMPLES = {
        "",
        "pass",
        "2026-12-01T10:00:00.000000+00:00",
        "nul\u0000inside",
        "agént",
        "\u07ff\u0800\uffff",
        "emoji \ud83d\ude42",
        "lone \ud800 surrogate",
        "\u0080"
    };

    @Test
    void writesWhatDataOutputStreamWritesAndReadsItBack() throws IOException {
        Random random = new Random(7);
        for (int round = 0; round < 2_000; round++) {
            String text = round < SAMPLES.length ? SAMPLES[round] : randomText(random);
            long number = random.nextLong();
            int small = random.nextInt();
            double decimal = round % 3 == 0 ? Double.NaN : random.nextGaussian();

            ByteArrayOutputStream reference = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(reference)) {
                out.writeByte(round);
                out.writeUTF(text);
                out.writeLong(number);
                out.writeInt(small);
                out.writeShort(small);
                out.writeBoolean(round % 2 == 0);
                out.writeDouble(decimal);
            }
            byte[] ours = new DataBytes.Writer(1)
                    .writeByte(round)
                    .writeUTF(text)
                    .writeLong(number)
                    .writeInt(small)
                    .writeShort(small)
                    .writeBoolean(round % 2 == 0)
                    .writeDouble(decimal)
                    .toByteArray();
            assertArrayEquals(reference.toByteArray(), ours, "round " + round);

            DataBytes.Reader in = new DataBytes.Reader(ours);
            DataInputStream check = new DataInputStream(new ByteArrayInputStream(ours));
            assertEquals(check.readByte(), in.readByte());
            assertEquals(check.readUTF(), in.readUTF(), "round " + round);
            assertEquals(check.readLong(), in.readLong());
            assertEquals(check.readInt(), in.readInt());
            assertEquals(check.readShort(), in.readShort());
            assertEquals(check.readBoolean(), in.readBoolean());
            assertEquals(Double.doubleToRawLongBits(check.readDouble()), Double.doubleToRawLongBits(in.readDouble()));
        }
    }

    @Test
    void aTruncatedOrMalformedRecordIsASerializationException() {
        byte[] text = new DataBytes.Writer(8).writeUTF("agént").toByteArray();
        assertThrows(SerializationException.class, () -> new DataBytes.Reader(new byte[] {0, 9, 'a'}).readUTF());
        assertThrows(SerializationException.class, () -> new DataBytes.Reader(new byte[7]).readLong());
        byte[] cut = {0, 1, text[5]}; // the first byte of a two-byte character, alone
        assertThrows(SerializationException.class, () -> new DataBytes.Reader(cut).readUTF());
        assertThrows(SerializationException.class, () -> new DataBytes.Writer(8).writeUTF("\u0800".repeat(22_000)));
    }

    private static String randomText(Random random) {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(80);
        for (int i = 0; i < length; i++) {
            int kind = random.nextInt(10);
            text.append(
                    kind < 6
                            ? (char) (0x20 + random.nextInt(0x5f))
                            : kind < 8 ? (char) random.nextInt(0x800) : (char) random.nextInt(0x10000));
        }
        return text.toString();
    }
}
