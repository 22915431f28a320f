package dev.proofline.engine;

import dev.proofline.attestor.CanonicalForm;
import dev.proofline.attestor.StrictJson;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a request's bytes into its tree, reusing the {@code expected_schema} of an earlier request
 * whose schema had the very same bytes: its tree and its canonical form with the hash. A pipeline
 * sends one schema with every output, and the schema is often the larger part of the request, so
 * parsing, canonicalizing and hashing it again each time is most of the request's own cost.
 *
 * <p>Only the same bytes count as the same schema (a byte comparison, no parsing), and only a
 * schema that was parsed, hashed and compiled without a problem is kept ({@link #remember}). What
 * a request means, and every error it gets, is exactly what {@link StrictJson#parse} gives: the
 * body is read as one stream with the same strict settings, and anything unusual (not plain ASCII,
 * not an object, any error at all) is read again by {@link StrictJson#parse}, whose answer stands.
 */
final class RepeatedSchemas {
    /** Schemas kept; a node sends a handful of distinct schemas, not hundreds. */
    static final int MAX_SCHEMAS = 32;
    /** Largest schema kept, in bytes: 32 trees of at most this much text each. */
    static final int MAX_SCHEMA_BYTES = 16 * 1024;

    private static final String SCHEMA_FIELD = "expected_schema";
    // Reads one value where the stream stands; the document's end is checked here, not per value.
    private static final ObjectReader VALUE_READER =
            StrictJson.MAPPER.readerFor(JsonNode.class).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** A schema seen before: its tree (never changed by anyone) and its canonical form. */
    record Known(JsonNode schema, CanonicalForm form) {}

    /**
     * A request's tree; {@code known} when its schema was seen before, {@code unseen} (a copy of its
     * bytes) when it may be remembered once the request proves valid.
     */
    record Read(JsonNode request, Known known, SchemaBytes unseen) {}

    private final Map<SchemaBytes, Known> kept = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<SchemaBytes, Known> eldest) {
            return size() > MAX_SCHEMAS;
        }
    };
    private long reused;

    /** Parses as {@link StrictJson#parse} does, and throws what it throws. */
    Read read(byte[] body) {
        if (StrictJson.isPlainAscii(body)) {
            try {
                Read read = stream(body);
                if (read != null) {
                    return read;
                }
            } catch (JacksonException e) {
                // StrictJson below says what is wrong, in its words and at its position.
            }
        }
        return new Read(StrictJson.parse(body), null, null);
    }

    /** Keeps a schema that was read, hashed and compiled without a problem. */
    void remember(SchemaBytes schemaBytes, JsonNode schema, CanonicalForm form) {
        synchronized (kept) {
            kept.put(schemaBytes, new Known(schema, form));
        }
    }

    /** How many requests reused a kept schema, since start. */
    long reused() {
        synchronized (kept) {
            return reused;
        }
    }

    /** The whole request as one object, or null to leave it to {@link StrictJson#parse}. */
    private Read stream(byte[] body) {
        try (JsonParser parser = StrictJson.MAPPER.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            ObjectNode request = StrictJson.NODES.objectNode();
            Known known = null;
            SchemaBytes unseen = null;
            // The parser itself refuses a key sent twice (STRICT_DUPLICATE_DETECTION), here and inside.
            while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if (value == JsonToken.START_OBJECT && name.equals(SCHEMA_FIELD)) {
                    int from = (int) parser.currentTokenLocation().getByteOffset();
                    parser.skipChildren();
                    int to = (int) parser.currentLocation().getByteOffset();
                    known = find(body, from, to);
                    if (known != null) {
                        request.set(name, known.schema());
                    } else {
                        request.set(name, StrictJson.MAPPER.readTree(body, from, to - from));
                        unseen = to - from <= MAX_SCHEMA_BYTES ? SchemaBytes.copyOf(body, from, to) : null;
                    }
                } else if (value == JsonToken.VALUE_NULL) {
                    request.set(name, StrictJson.NODES.nullNode()); // as a tree holds it, not Java's null
                } else if (value == JsonToken.VALUE_STRING) {
                    request.set(name, StrictJson.NODES.stringNode(parser.getString())); // ids: no reader needed
                } else {
                    request.set(name, (JsonNode) VALUE_READER.readTree(parser));
                }
            }
            if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null) {
                return null;
            }
            if (known != null) {
                counted();
            }
            return new Read(request, known, unseen);
        }
    }

    private Known find(byte[] body, int from, int to) {
        if (to - from > MAX_SCHEMA_BYTES) {
            return null;
        }
        SchemaBytes probe = new SchemaBytes(body, from, to);
        synchronized (kept) {
            return kept.get(probe);
        }
    }

    private void counted() {
        synchronized (kept) {
            reused++;
        }
    }

    /** A schema's bytes as a map key: a range of a request while looking up, a copy once kept. */
    static final class SchemaBytes {
        private static final int HASH_SAMPLES = 32;
        private final byte[] bytes;
        private final int from;
        private final int to;
        private final int hash;

        private SchemaBytes(byte[] bytes, int from, int to) {
            this.bytes = bytes;
            this.from = from;
            this.to = to;
            // A sample of the bytes: equals() compares them all (vectorized), and a few dozen kept
            // schemas need no stronger spread, while a full polynomial hash is a serial chain of
            // multiplies as long as the schema, a third of what reusing it saves.
            int h = to - from;
            int step = Math.max(1, (to - from) / HASH_SAMPLES);
            for (int i = from; i < to; i += step) {
                h = 31 * h + bytes[i];
            }
            this.hash = h;
        }

        static SchemaBytes copyOf(byte[] body, int from, int to) {
            return new SchemaBytes(Arrays.copyOfRange(body, from, to), 0, to - from);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof SchemaBytes that
                    && hash == that.hash
                    && Arrays.equals(bytes, from, to, that.bytes, that.from, that.to);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
