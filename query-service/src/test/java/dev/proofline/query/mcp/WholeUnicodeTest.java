package dev.proofline.query.mcp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.StrictJson;
import java.util.List;
import org.junit.jupiter.api.Test;

class WholeUnicodeTest {
    @Test
    void aLoneSurrogateAnywhereInTheMessageIsFound() {
        for (String message : List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"initialize\"}",
                "{\"params\":{\"arguments\":{\"a\":[1,{\"b\":\"x\\udc00\"}]}}}",
                "[\"ok\",\"\\ud83d\"]",
                "\"\\udfff\\ud800\"")) {
            assertTrue(WholeUnicode.hasLoneSurrogate(StrictJson.parse(message)), message);
        }
        assertTrue(WholeUnicode.hasLoneSurrogate("a\ud800"));
        assertTrue(WholeUnicode.hasLoneSurrogate("\ud800a"));
    }

    @Test
    void pairedSurrogatesAndPlainTextAreWhole() {
        for (String message : List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":\"\\ud83d\\ude00\",\"method\":\"ping\"}",
                "{\"\\u00e9t\\u00e9\":[\"\u2603\",1,null,true,{\"\\ud83d\\ude00\":\"\"}]}",
                "42")) {
            assertFalse(WholeUnicode.hasLoneSurrogate(StrictJson.parse(message)), message);
        }
    }
}
