package dev.proofline.query.mcp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class WholeUnicodeTest {
    private static boolean lone(String json) {
        return WholeUnicode.hasLoneSurrogate(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aLoneSurrogateAnywhereInTheMessageIsFound() {
        for (String message : List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"initialize\"}",
                "{\"params\":{\"arguments\":{\"a\":[1,{\"b\":\"x\\udc00\"}]}}}",
                "[\"ok\",\"\\ud83d\"]",
                "[\"\\ud83dx\"]",
                "[\"\\ud83d\\u0041\"]",
                "\"\\udfff\\ud800\"",
                "\"\\uD800",
                "{\"jsonrpc\":\"2.0\",\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\"}", // a key twice: still found
                "{\"\\udc00\":1}",
                "[\"\\\\\\ud800\"]")) { // an escaped backslash, then an escape
            assertTrue(lone(message), message);
        }
        byte[] cesu = {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'};
        assertTrue(WholeUnicode.hasLoneSurrogate(cesu));
    }

    @Test
    void pairedSurrogatesEscapedBackslashesAndPlainTextAreWhole() {
        for (String message : List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":\"\\ud83d\\ude00\",\"method\":\"ping\"}",
                "{\"\\u00e9t\\u00e9\":[\"\u2603\",1,null,true,{\"\\uD83D\\uDE00\":\"\"}]}",
                "[\"\\\\ud800\"]", // an escaped backslash, then the letters ud800
                "[\"\\\\\\\\ud800\"]", // two escaped backslashes, then the letters
                "[\"\\u\"]",
                "[\"\uD83D\uDE00\"]", // the character itself, as UTF-8
                "42",
                "")) {
            assertFalse(lone(message), message);
        }
    }
}
