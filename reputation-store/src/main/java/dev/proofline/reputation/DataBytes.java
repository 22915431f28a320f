package dev.proofline.reputation;

import java.io.UTFDataFormatException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The bytes {@link java.io.DataOutputStream} writes (big-endian numbers, strings in modified UTF-8
 * after a two-byte length), written into and read from a plain array.
 *
 * <p>Why not the streams themselves: every counted receipt reads and rewrites its agent's history,
 * and on the stream thread's profile the stream classes spent most of that time in their
 * synchronized single-field reads and writes and in decoding strings a char at a time. Here a field
 * is an array access, and ASCII strings (ids, timestamps, results: nearly all of a history) are copied
 * as bytes. The format stays exactly DataOutput's, so histories already stored read unchanged.
 */
final class DataBytes {
    private DataBytes() {}

    static final class Writer {
        private byte[] buffer;
        private int size;

        Writer(int initialCapacity) {
            buffer = new byte[Math.max(16, initialCapacity)];
        }

        Writer writeByte(int value) {
            ensure(1);
            buffer[size++] = (byte) value;
            return this;
        }

        Writer writeBoolean(boolean value) {
            return writeByte(value ? 1 : 0);
        }

        Writer writeShort(int value) {
            ensure(2);
            buffer[size++] = (byte) (value >>> 8);
            buffer[size++] = (byte) value;
            return this;
        }

        Writer writeInt(int value) {
            ensure(4);
            for (int shift = 24; shift >= 0; shift -= 8) {
                buffer[size++] = (byte) (value >>> shift);
            }
            return this;
        }

        Writer writeLong(long value) {
            ensure(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                buffer[size++] = (byte) (value >>> shift);
            }
            return this;
        }

        Writer writeDouble(double value) {
            return writeLong(Double.doubleToLongBits(value));
        }

        /** Modified UTF-8 as {@link java.io.DataOutput#writeUTF}: U+0000 in two bytes, supplementary characters as two surrogates. */
        Writer writeUTF(String value) {
            int length = value.length();
            int encoded = length;
            for (int i = 0; i < length; i++) {
                char c = value.charAt(i);
                if (c == 0 || c >= 0x80) {
                    encoded += c >= 0x800 ? 2 : 1;
                }
            }
            if (encoded > 0xFFFF) {
                throw new SerializationException(new UTFDataFormatException("a string of " + encoded + " bytes"));
            }
            writeShort(encoded);
            ensure(encoded);
            byte[] out = buffer;
            int at = size;
            for (int i = 0; i < length; i++) {
                char c = value.charAt(i);
                if (c != 0 && c < 0x80) {
                    out[at++] = (byte) c;
                } else if (c < 0x800) {
                    out[at++] = (byte) (0xC0 | (c >> 6));
                    out[at++] = (byte) (0x80 | (c & 0x3F));
                } else {
                    out[at++] = (byte) (0xE0 | (c >> 12));
                    out[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                    out[at++] = (byte) (0x80 | (c & 0x3F));
                }
            }
            size = at;
            return this;
        }

        /** Appends bytes already encoded: a piece of what another writer wrote. */
        Writer writeEncoded(byte[] bytes, int from, int to) {
            ensure(to - from);
            System.arraycopy(bytes, from, buffer, size, to - from);
            size += to - from;
            return this;
        }

        /** Bytes written so far: where the next piece will start. */
        int size() {
            return size;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buffer, size);
        }

        private void ensure(int more) {
            if (size + more > buffer.length) {
                buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
            }
        }
    }

    static final class Reader {
        private final byte[] bytes;
        private int at;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        byte readByte() {
            need(1);
            return bytes[at++];
        }

        boolean readBoolean() {
            return readByte() != 0;
        }

        short readShort() {
            need(2);
            return (short) (((bytes[at++] & 0xFF) << 8) | (bytes[at++] & 0xFF));
        }

        int readInt() {
            need(4);
            int value = 0;
            for (int i = 0; i < 4; i++) {
                value = (value << 8) | (bytes[at++] & 0xFF);
            }
            return value;
        }

        long readLong() {
            need(8);
            long value = 0;
            for (int i = 0; i < 8; i++) {
                value = (value << 8) | (bytes[at++] & 0xFF);
            }
            return value;
        }

        double readDouble() {
            return Double.longBitsToDouble(readLong());
        }

        String readUTF() {
            int length = readShort() & 0xFFFF;
            need(length);
            int end = at + length;
            int ascii = at;
            while (ascii < end && bytes[ascii] > 0) { // the common case: 1 to 127, one byte each
                ascii++;
            }
            if (ascii == end) {
                String value = new String(bytes, at, length, StandardCharsets.ISO_8859_1);
                at = end;
                return value;
            }
            return decodeModified(end);
        }

        private String decodeModified(int end) {
            char[] chars = new char[end - at];
            int n = 0;
            while (at < end) {
                int b = bytes[at] & 0xFF;
                if (b < 0x80) {
                    chars[n++] = (char) b;
                    at++;
                } else if ((b & 0xE0) == 0xC0 && at + 1 < end && (bytes[at + 1] & 0xC0) == 0x80) {
                    chars[n++] = (char) (((b & 0x1F) << 6) | (bytes[at + 1] & 0x3F));
                    at += 2;
                } else if ((b & 0xF0) == 0xE0
                        && at + 2 < end
                        && (bytes[at + 1] & 0xC0) == 0x80
                        && (bytes[at + 2] & 0xC0) == 0x80) {
                    chars[n++] = (char) (((b & 0x0F) << 12) | ((bytes[at + 1] & 0x3F) << 6) | (bytes[at + 2] & 0x3F));
                    at += 3;
                } else {
                    throw new SerializationException("malformed modified UTF-8 in an agent-history record");
                }
            }
            return new String(chars, 0, n);
        }

        private void need(int n) {
            if (n > bytes.length - at) {
                throw new SerializationException("a truncated agent-history record");
            }
        }
    }
}
