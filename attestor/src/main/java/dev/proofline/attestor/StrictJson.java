package dev.proofline.attestor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
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
    public static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    public static final JsonNodeFactory NODES = MAPPER.getNodeFactory();

    private StrictJson() {}

    /** Parses one JSON document; trailing content after it is an error. */
    public static JsonNode parse(byte[] json) {
        try {
            JsonNode node = MAPPER.readTree(json);
            if (node == null || node.isMissingNode()) {
                throw new CanonicalJsonException("", "empty document: expected a JSON value");
            }
            return node;
        } catch (JacksonException e) {
            throw new CanonicalJsonException("", describe(e));
        }
    }

    public static JsonNode parse(String json) {
        return parse(json.getBytes(StandardCharsets.UTF_8));
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
        } else if (original.contains("Trailing token")) {
            reason = "there is content after the JSON value";
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
