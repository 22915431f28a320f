package dev.proofline.schemas;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * The Confluent wire format every registry-aware Kafka client reads: a zero magic byte, the 4-byte
 * big-endian schema id, then the Avro binary encoding.
 */
public final class ConfluentWireFormat {
    public static final byte MAGIC = 0;
    public static final int HEADER_SIZE = 5;

    private ConfluentWireFormat() {}

    /** The magic byte and the big-endian schema id that open every framed value. */
    static void writeHeader(OutputStream out, int schemaId) throws IOException {
        out.write(MAGIC);
        out.write(schemaId >>> 24);
        out.write(schemaId >>> 16);
        out.write(schemaId >>> 8);
        out.write(schemaId);
    }

    /** The schema id of a framed value; refuses anything that is not Confluent-framed. */
    static int schemaId(byte[] framed) {
        if (framed == null || framed.length < HEADER_SIZE || framed[0] != MAGIC) {
            throw new IllegalArgumentException(
                    "not a Confluent wire-format value (magic byte 0 and a 4-byte schema id)");
        }
        return ByteBuffer.wrap(framed, 1, 4).getInt();
    }
}
