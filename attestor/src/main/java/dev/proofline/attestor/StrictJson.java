package dev.proofline.attestor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The one JSON reader of Proofline: duplicate keys are an error (a signed document must mean one
 * thing), and numbers are read as Jackson's defaults (ints as integers, everything else as double),
 * which is what RFC 8785 canonicalization expects.
 */
public final class StrictJson {
    /**
     * Deepest nesting of arrays and objects accepted. Every walker of a document (canonical JSON,
     * the schema validator, the rules) recurses, so depth is bounded where documents enter; 128 is
     * far beyond any real output or schema and far below any thread's stack.
     */
    public static final int MAX_NESTING_DEPTH = 128;

    /**
     * Characters in one number's text (Jackson's default, kept): no double needs more than a few
     * dozen, and parsing a longer one costs more than it can mean.
     */
    public static final int MAX_NUMBER_LENGTH = 1000;

    public static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_NESTING_DEPTH)
                            .maxNumberLength(MAX_NUMBER_LENGTH)
                            .build())
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    public static final JsonNodeFactory NODES = MAPPER.getNodeFactory();

    private StrictJson() {}

    /**
     * Parses one JSON document; trailing content after it is an error. The bytes must be UTF-8, as
     * RFC 8259 requires between systems: Jackson alone would also take UTF-16 and UTF-32 (guessing
     * from the byte pattern) and some malformed UTF-8, and a signed document must mean one thing.
     */
    public static JsonNode parse(byte[] json) {
        if (isPlainAscii(json)) {
            return parseBytes(json);
        }
        String text;
        try {
            text = decodeStrictly(json);
        } catch (CharacterCodingException e) {
            throw new CanonicalJsonException("", "not valid UTF-8");
        }
        return parseText(text);
    }

    private static String decodeStrictly(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
    }

    /**
     * Bytes 1 to 127 only, as nearly every request is: valid UTF-8 whose every byte is its character,
     * and without the zero bytes from which Jackson would guess UTF-16 or UTF-32. Such a document is
     * parsed from its bytes, which skips decoding it to a string and Jackson's copying of that string
     * (about a third of parsing a small request); anything else is decoded strictly first.
     */
    public static boolean isPlainAscii(byte[] json) {
        for (byte b : json) {
            if (b <= 0) {
                return false;
            }
        }
        return true;
    }

    private static JsonNode parseBytes(byte[] json) {
        try {
            return present(MAPPER.readTree(json));
        } catch (JacksonException e) {
            throw new CanonicalJsonException("", describe(e));
        }
    }

    private static JsonNode present(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            throw new CanonicalJsonException("", "empty document: expected a JSON value");
        }
        return node;
    }

    public static JsonNode parse(String json) {
        return parseText(json);
    }

    private static JsonNode parseText(String json) {
        try {
            return present(MAPPER.readTree(json));
        } catch (JacksonException e) {
            throw new CanonicalJsonException("", describe(e));
        }
    }

    public static JsonNode parse(Path file) throws IOException {
        return parse(Files.readAllBytes(file));
    }

    public static JsonNode parse(InputStream in) throws IOException {
        return parse(in.readAllBytes());
    }

    /** Pretty-prints for people. Never use this form for anything that is hashed or signed. */
    public static String pretty(JsonNode node) {
        return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node);
    }

    /**
     * Jackson's messages quote the offending input, and an error must never echo the caller's
     * input, so only the kind of problem and its location are kept.
     */
    private static String describe(JacksonException e) {
        String original = String.valueOf(e.getOriginalMessage());
        String reason;
        if (original.startsWith("Duplicate")) {
            reason = "an object has the same key twice";
        } else if (original.contains("end-of-input") || original.contains("end of input")) {
            reason = "the document ends before the value is complete";
        } else if (original.contains("nesting depth")) {
            reason = "arrays and objects are nested deeper than " + MAX_NESTING_DEPTH + " levels";
        } else if (original.contains("Trailing token")) {
            reason = "there is content after the JSON value";
        } else if (original.contains("Number value length")) {
            reason = "a number is written with more than " + MAX_NUMBER_LENGTH + " digits";
        } else if (original.contains("surrogate")) {
            reason = "a string contains a lone surrogate, which has no UTF-8 encoding";
        } else {
            reason = "unexpected character or token";
        }
        var location = e.getLocation();
        if (location != null && location.getLineNr() > 0) {
            return "not valid JSON at line " + location.getLineNr() + ", column " + location.getColumnNr() + ": "
                    + reason;
        }
        return "not valid JSON: " + reason;
    }
}
