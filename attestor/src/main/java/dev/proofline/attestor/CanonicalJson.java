package dev.proofline.attestor;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * RFC 8785 (JSON Canonicalization Scheme) over Jackson trees: object keys sorted by UTF-16 code
 * units, no insignificant whitespace, strings with only the escapes JSON requires, and numbers
 * printed as ECMAScript prints a double.
 *
 * <p>Values without a canonical form are refused with a {@link CanonicalJsonException} naming
 * their path: lone surrogates (they cannot be encoded as UTF-8) and non-finite numbers.
 */
public final class CanonicalJson {
    private static final long MAX_EXACT_LONG = 1L << 53;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private CanonicalJson() {}

    public static String toCanonicalString(JsonNode node) {
        StringBuilder out = new StringBuilder(256);
        write(node, out, new PathTracker());
        return out.toString();
    }

    public static byte[] toCanonicalBytes(JsonNode node) {
        return toCanonicalString(node).getBytes(StandardCharsets.UTF_8);
    }

    private static void write(JsonNode node, StringBuilder out, PathTracker path) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            out.append("null");
        } else if (node.isBoolean()) {
            out.append(node.booleanValue() ? "true" : "false");
        } else if (node.isString()) {
            writeString(node.stringValue(), out, path);
        } else if (node.isNumber()) {
            writeNumber(node, out, path);
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                path.push(i);
                write(node.get(i), out, path);
                path.pop();
            }
            out.append(']');
        } else if (node.isObject()) {
            writeObject(node, out, path);
        } else {
            throw new CanonicalJsonException(path.toString(), "not a JSON value: " + node.getNodeType());
        }
    }

    private static void writeObject(JsonNode node, StringBuilder out, PathTracker path) {
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(node.properties());
        // String.compareTo compares UTF-16 code units, exactly the order RFC 8785 asks for.
        entries.sort(Map.Entry.comparingByKey());
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, JsonNode> entry : entries) {
            if (!first) {
                out.append(',');
            }
            first = false;
            path.push(entry.getKey());
            writeString(entry.getKey(), out, path);
            out.append(':');
            write(entry.getValue(), out, path);
            path.pop();
        }
        out.append('}');
    }

    private static void writeNumber(JsonNode node, StringBuilder out, PathTracker path) {
        if (node.isInt() || node.isLong() || node.isShort()) {
            long value = node.longValue();
            if (Math.abs(value) <= MAX_EXACT_LONG) {
                out.append(value);
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
                    path.toString(), "number is outside the range of an IEEE 754 double and has no canonical form");
        }
        out.append(EcmaScriptNumbers.format(value));
    }

    private static void writeString(String value, StringBuilder out, PathTracker path) {
        out.append('"');
        int length = value.length();
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else if (Character.isHighSurrogate(c)) {
                        if (i + 1 >= length || !Character.isLowSurrogate(value.charAt(i + 1))) {
                            throw loneSurrogate(path, c);
                        }
                        out.append(c).append(value.charAt(++i));
                    } else if (Character.isLowSurrogate(c)) {
                        throw loneSurrogate(path, c);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static CanonicalJsonException loneSurrogate(PathTracker path, char c) {
        return new CanonicalJsonException(
                path.toString(),
                String.format("string contains a lone surrogate U+%04X, which has no UTF-8 encoding", (int) c));
    }

    /** Keeps the current location only so that an error can name it; cheap on the happy path. */
    private static final class PathTracker {
        private final ArrayList<Object> segments = new ArrayList<>();

        void push(Object segment) {
            segments.add(segment);
        }

        void pop() {
            segments.remove(segments.size() - 1);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("$");
            for (Object segment : segments) {
                if (segment instanceof Integer index) {
                    sb.append('[').append(index).append(']');
                } else {
                    sb.append('.').append(segment);
                }
            }
            return sb.toString();
        }
    }
}
