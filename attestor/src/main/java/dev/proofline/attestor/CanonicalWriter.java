package dev.proofline.attestor;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Map;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.JsonNode;

/**
 * Writes RFC 8785 canonical JSON straight to UTF-8 bytes in a growing buffer ({@code docs/hashes.md}):
 * object keys sorted by UTF-16 code units, no insignificant whitespace, strings with only the
 * escapes JSON requires, numbers as ECMAScript prints a double.
 *
 * <p>Why bytes and not a {@link StringBuilder}: what is canonicalized is hashed or signed, and both
 * want UTF-8; writing it once into one buffer, with a plain loop for the common ASCII case, removes
 * the builder's growth copies, the string, and its encoding from every receipt. Several values may
 * be written one after another and any range of the buffer hashed in place, so a document that
 * contains others (the signed message contains the receipt) is walked once.
 *
 * <p>Values without a canonical form throw a {@link CanonicalJsonException} naming their path,
 * relative to the value passed to {@link #value}: lone surrogates (no UTF-8 encoding) and
 * non-finite numbers. The path is built while the exception unwinds, so the happy path pays nothing for it.
 */
public final class CanonicalWriter {
    private static final long MAX_EXACT_LONG = 1L << 53;
    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};
    // String.compareTo compares UTF-16 code units, exactly the order RFC 8785 asks for.
    private static final Comparator<Map.Entry<String, JsonNode>> BY_KEY = Map.Entry.comparingByKey();

    private final boolean canonicalOrder;
    private byte[] buffer;
    private int size;

    public CanonicalWriter() {
        this(1024);
    }

    public CanonicalWriter(int initialCapacity) {
        this(initialCapacity, true);
    }

    private CanonicalWriter(int initialCapacity, boolean canonicalOrder) {
        this.buffer = new byte[Math.max(16, initialCapacity)];
        this.canonicalOrder = canonicalOrder;
    }

    /**
     * Compact JSON for people and the wire, not for hashing: keys in the tree's own order (a receipt's
     * documented order), strings escaped as above, and numbers other than integers as Jackson prints
     * them ({@code 1.0}), so a published receipt reads as it always has. Its signature covers the
     * canonical form, which key order and number spelling do not change.
     */
    public static byte[] compactInTreeOrder(JsonNode node) {
        return new CanonicalWriter(4096, false).value(node).toByteArray();
    }

    /**
     * A writer for compact JSON in the order values are written, for a document laid out by hand (a
     * receipt): numbers other than integers as Jackson prints them, as {@link #compactInTreeOrder}.
     */
    public static CanonicalWriter compact(int initialCapacity) {
        return new CanonicalWriter(initialCapacity, false);
    }

    /** Whether this writer sorts object keys (RFC 8785) or keeps the order it is given. */
    public boolean sortsKeys() {
        return canonicalOrder;
    }

    /** Bytes written so far; a position to hash from or to. */
    public int size() {
        return size;
    }

    /** Appends the canonical form of {@code node} ({@code null} and missing nodes write {@code null}). */
    public CanonicalWriter value(JsonNode node) {
        if (node == null) {
            raw(NULL);
            return this;
        }
        // One virtual call per node: each isX() asks getNodeType() again, and across the many node
        // classes of a receipt that call is megamorphic (a profile of the pipeline showed the
        // receipt's walks spending a third of their time in these tests).
        switch (node.getNodeType()) {
            case NULL, MISSING -> raw(NULL);
            case BOOLEAN -> raw(node.booleanValue() ? TRUE : FALSE);
            case STRING -> string(node.stringValue());
            case NUMBER -> number(node);
            case ARRAY -> array(node);
            case OBJECT -> object(node);
            default -> throw new CanonicalJsonException("$", "not a JSON value: " + node.getNodeType());
        }
        return this;
    }

    /** Appends a JSON string: quoted, escaped as RFC 8785 requires, UTF-8 encoded. */
    public CanonicalWriter string(String value) {
        int length = value.length();
        ensure(length + 2);
        byte[] out = buffer;
        int at = size;
        out[at++] = '"';
        int i = 0;
        for (; i < length; i++) { // the common case: printable ASCII that needs no escape
            char c = value.charAt(i);
            if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
                break;
            }
            out[at++] = (byte) c;
        }
        size = at;
        if (i < length) {
            escapedTail(value, i);
        }
        ensure(1);
        buffer[size++] = '"';
        return this;
    }

    /**
     * Appends text as it is. For the fixed punctuation and keys of documents whose layout is known
     * (it must be ASCII and already valid canonical JSON where it stands).
     */
    public CanonicalWriter ascii(String text) {
        int length = text.length();
        ensure(length);
        for (int i = 0; i < length; i++) {
            buffer[size + i] = (byte) text.charAt(i);
        }
        size += length;
        return this;
    }

    /** Appends bytes already in canonical form: what another writer wrote. */
    public CanonicalWriter canonical(CanonicalWriter other) {
        return canonical(other.buffer, other.size);
    }

    /** Appends a canonical form kept from earlier. */
    public CanonicalWriter canonical(CanonicalForm form) {
        form.appendTo(this);
        return this;
    }

    CanonicalWriter canonical(byte[] form, int length) {
        ensure(length);
        System.arraycopy(form, 0, buffer, size, length);
        size += length;
        return this;
    }

    /** The buffer itself, for a {@link CanonicalForm} that takes it over. */
    byte[] buffer() {
        return buffer;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buffer, size);
    }

    /** Lowercase hex SHA-256 of everything written so far. */
    public String sha256Hex() {
        return sha256Hex(0, size);
    }

    /** Lowercase hex SHA-256 of the bytes written between two positions. */
    public String sha256Hex(int from, int to) {
        return HexFormat.of().formatHex(Sha256.digest(buffer, from, to - from));
    }

    /** The canonical text (decoded from the UTF-8 bytes). */
    @Override
    public String toString() {
        return new String(buffer, 0, size, StandardCharsets.UTF_8);
    }

    private void object(JsonNode node) {
        int count = node.size();
        if (count == 0) {
            raw((byte) '{', (byte) '}');
            return;
        }
        raw((byte) '{');
        if (canonicalOrder && count > 1) {
            @SuppressWarnings("unchecked")
            Map.Entry<String, JsonNode>[] entries = new Map.Entry[count];
            boolean sorted = true;
            int i = 0;
            for (Map.Entry<String, JsonNode> entry : node.properties()) {
                entries[i] = entry;
                if (sorted && i > 0 && entries[i - 1].getKey().compareTo(entry.getKey()) > 0) {
                    sorted = false; // a tree built in canonical order needs no sort
                }
                i++;
            }
            if (!sorted) {
                Arrays.sort(entries, BY_KEY);
            }
            for (i = 0; i < count; i++) {
                member(i > 0, entries[i]);
            }
        } else { // the tree's own order: no copy to sort
            boolean more = false;
            for (Map.Entry<String, JsonNode> entry : node.properties()) {
                member(more, entry);
                more = true;
            }
        }
        raw((byte) '}');
    }

    private void member(boolean afterAnother, Map.Entry<String, JsonNode> entry) {
        if (afterAnother) {
            raw((byte) ',');
        }
        String key = entry.getKey();
        try {
            string(key);
            raw((byte) ':');
            value(entry.getValue());
        } catch (CanonicalJsonException e) {
            throw e.within(key);
        }
    }

    private void array(JsonNode node) {
        raw((byte) '[');
        int length = node.size();
        for (int i = 0; i < length; i++) {
            if (i > 0) {
                raw((byte) ',');
            }
            try {
                value(node.get(i));
            } catch (CanonicalJsonException e) {
                throw e.within(i);
            }
        }
        raw((byte) ']');
    }

    private void number(JsonNode node) {
        JsonParser.NumberType type = node.numberType(); // once: each isX() is another virtual call
        boolean fitsLong = type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG;
        if (!canonicalOrder && !fitsLong && type != JsonParser.NumberType.BIG_INTEGER) {
            ascii(node.toString());
            return;
        }
        if (fitsLong) {
            long value = node.longValue();
            if (value >= -MAX_EXACT_LONG
                    && value <= MAX_EXACT_LONG) { // not Math.abs: it is negative for Long.MIN_VALUE
                ascii(Long.toString(value));
                return;
            }
        }
        double value;
        try {
            value = node.doubleValue();
        } catch (RuntimeException e) {
            value = Double.NaN; // Jackson refuses to turn an integer of hundreds of digits into a double
        }
        if (!Double.isFinite(value)) {
            throw new CanonicalJsonException(
                    "$", "number is outside the range of an IEEE 754 double and has no canonical form");
        }
        ascii(EcmaScriptNumbers.format(value));
    }

    /** From the first character that is not plain ASCII on: escapes and multi-byte UTF-8. */
    private void escapedTail(String value, int from) {
        int length = value.length();
        for (int i = from; i < length; i++) {
            char c = value.charAt(i);
            ensure(6);
            byte[] out = buffer;
            if (c < 0x80) {
                switch (c) {
                    case '"' -> raw((byte) '\\', (byte) '"');
                    case '\\' -> raw((byte) '\\', (byte) '\\');
                    case '\b' -> raw((byte) '\\', (byte) 'b');
                    case '\f' -> raw((byte) '\\', (byte) 'f');
                    case '\n' -> raw((byte) '\\', (byte) 'n');
                    case '\r' -> raw((byte) '\\', (byte) 'r');
                    case '\t' -> raw((byte) '\\', (byte) 't');
                    default -> {
                        if (c < 0x20) {
                            out[size++] = '\\';
                            out[size++] = 'u';
                            out[size++] = '0';
                            out[size++] = '0';
                            out[size++] = HEX_DIGITS[c >> 4];
                            out[size++] = HEX_DIGITS[c & 0xF];
                        } else {
                            out[size++] = (byte) c;
                        }
                    }
                }
            } else if (c < 0x800) {
                out[size++] = (byte) (0xC0 | (c >> 6));
                out[size++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c)) {
                if (i + 1 >= length || !Character.isLowSurrogate(value.charAt(i + 1))) {
                    throw loneSurrogate(c);
                }
                int codePoint = Character.toCodePoint(c, value.charAt(++i));
                out[size++] = (byte) (0xF0 | (codePoint >> 18));
                out[size++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
                out[size++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
                out[size++] = (byte) (0x80 | (codePoint & 0x3F));
            } else if (Character.isLowSurrogate(c)) {
                throw loneSurrogate(c);
            } else {
                out[size++] = (byte) (0xE0 | (c >> 12));
                out[size++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                out[size++] = (byte) (0x80 | (c & 0x3F));
            }
        }
    }

    private static CanonicalJsonException loneSurrogate(char c) {
        return new CanonicalJsonException(
                "$", String.format("string contains a lone surrogate U+%04X, which has no UTF-8 encoding", (int) c));
    }

    private void raw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buffer, size, bytes.length);
        size += bytes.length;
    }

    private void raw(byte b) {
        ensure(1);
        buffer[size++] = b;
    }

    private void raw(byte first, byte second) {
        ensure(2);
        buffer[size++] = first;
        buffer[size++] = second;
    }

    private void ensure(int more) {
        if (size + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
        }
    }
}
