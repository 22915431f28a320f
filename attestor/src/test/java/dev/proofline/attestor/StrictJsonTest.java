package dev.proofline.attestor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Plain ASCII documents are parsed from their bytes, everything else is decoded strictly first: the
 * two ways must agree on every document, valid or not, down to the words of the error.
 */
class StrictJsonTest {

    @Test
    void parsingTheBytesOfAnAsciiDocumentGivesWhatParsingItsTextGives() throws IOException {
        List<String> documents = new ArrayList<>(List.of(
                "{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"e\\u00e9\\n\"}}",
                "[1, 1.0, -0, 1e400, 123456789012345678901234567890, 0.1]",
                "\"text\"",
                "42",
                "",
                "   ",
                "{\"a\":1,\"a\":2}",
                "{\"a\":",
                "[1] x",
                "{\"a\":1}}",
                "{\"a\" 1}",
                "{\"tab\":\"a\tb\"}",
                "{\"ctrl\":\"a\u0001b\"}",
                "\u0001",
                "[" + "[".repeat(200) + "]".repeat(200) + "]",
                "\n\n  {\"line\": 3,\n \"bad\": tru }"));
        try (Stream<Path> requests = Files.list(Conformance.file("requests"))) {
            for (Path request : requests.sorted().toList()) {
                documents.add(Files.readString(request));
            }
        }
        for (String document : documents) {
            byte[] bytes = document.getBytes(StandardCharsets.UTF_8);
            assertEquals(outcome(() -> StrictJson.parse(document)), outcome(() -> StrictJson.parse(bytes)), document);
        }
    }

    @Test
    void aLongNumberAndALoneSurrogateInAKeyAreNamedNotJustUnexpected() {
        String longNumber = "{\"total\": 0." + "1".repeat(StrictJson.MAX_NUMBER_LENGTH) + "}";
        for (String document : List.of(longNumber, "{\"a\":1,\"\\udc00\":2}", "{\"\\ud800\":1}")) {
            for (Supplier<JsonNode> parse : List.<Supplier<JsonNode>>of(
                    () -> StrictJson.parse(document),
                    () -> StrictJson.parse(document.getBytes(StandardCharsets.UTF_8)))) {
                String message =
                        assertThrows(CanonicalJsonException.class, parse::get).getMessage();
                String expected = document == longNumber
                        ? "a number is written with more than 1000 digits"
                        : "a string contains a lone surrogate, which has no UTF-8 encoding";
                org.junit.jupiter.api.Assertions.assertTrue(message.endsWith(expected), message);
            }
        }
        // 1,000 digits is still a number, whatever its sign, point and exponent add (Jackson's count).
        String digits = "1".repeat(StrictJson.MAX_NUMBER_LENGTH - 3);
        StrictJson.parse("[-0." + digits + "e-17]");
        StrictJson.parse("[-" + "1".repeat(StrictJson.MAX_NUMBER_LENGTH) + "]");
        assertThrows(
                CanonicalJsonException.class,
                () -> StrictJson.parse("[-" + "1".repeat(StrictJson.MAX_NUMBER_LENGTH + 1) + "]"));
    }

    @Test
    void zeroBytesNeverLetJacksonGuessAnotherEncoding() {
        // "{}" in UTF-16BE and UTF-32LE: ASCII bytes apart from the zeros, and not UTF-8 JSON.
        for (byte[] bytes : List.of(new byte[] {0, '{', 0, '}'}, new byte[] {'{', 0, 0, 0, '}', 0, 0, 0})) {
            assertThrows(CanonicalJsonException.class, () -> StrictJson.parse(bytes));
        }
    }

    @Test
    void otherBytesAreStillDecodedStrictly() {
        assertEquals(
                "é", StrictJson.parse("\"é\"".getBytes(StandardCharsets.UTF_8)).stringValue());
        CanonicalJsonException invalid =
                assertThrows(CanonicalJsonException.class, () -> StrictJson.parse(new byte[] {'"', (byte) 0xC3, '"'}));
        assertEquals("not valid UTF-8", invalid.reason());
    }

    private static String outcome(Supplier<JsonNode> parse) {
        try {
            return "value " + parse.get();
        } catch (CanonicalJsonException e) {
            return "error " + e.path() + " " + e.reason();
        }
    }
}
