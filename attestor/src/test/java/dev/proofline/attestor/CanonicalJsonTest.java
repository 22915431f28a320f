package dev.proofline.attestor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class CanonicalJsonTest {

    private static String canonical(String json) {
        return CanonicalJson.toCanonicalString(StrictJson.parse(json));
    }

    @Test
    void rfc8785Section322Example() {
        String input = """
                {
                  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
                  "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
                  "literals": [null, true, false]
                }""";
        assertEquals(
                "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
                        + "\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}",
                canonical(input));
    }

    @Test
    void keysSortByUtf16CodeUnitsAsInRfc8785Section323() {
        String input = """
                {"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh",
                 "1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control",
                 "\\u00f6":"Latin Small Letter O With Diaeresis"}""";
        String out = canonical(input);
        String[] order = {"\\r", "1", "\u0080", "\u00f6", "\u20ac", "\ud83d\ude00", "\ufb33"};
        int last = -1;
        for (String key : order) {
            int at = out.indexOf("\"" + key + "\"");
            assertTrue(at > last, "key " + key + " out of order in " + out);
            last = at;
        }
    }

    @Test
    void numbersPrintAsEcmaScriptDoes() {
        assertEquals(
                "[87,1e+21,0.000001,1e-7,0,-1.5,9007199254740992,123456789012345680000]",
                canonical("[87.0, 1e21, 0.000001, 1e-7, -0.0, -1.5, 9007199254740992, 123456789012345678901]"));
    }

    @Test
    void controlCharactersUseLowercaseUnicodeEscapes() {
        assertEquals("\"\\u001f\\u0000\u007f\u2028\"", canonical("\"\\u001F\\u0000\\u007f\\u2028\""));
    }

    @Test
    void loneSurrogatesAreRefusedWithTheirPath() {
        CanonicalJsonException e =
                assertThrows(CanonicalJsonException.class, () -> canonical("{\"a\":[\"ok\",\"bad \\ud800 here\"]}"));
        assertEquals("$.a[1]", e.path());
        assertThrows(CanonicalJsonException.class, () -> canonical("\"\\udc00\""));
        assertThrows(CanonicalJsonException.class, () -> canonical("{\"\\ud83d\":1}"));
    }

    @Test
    void nonFiniteNumbersAreRefused() {
        CanonicalJsonException e = assertThrows(CanonicalJsonException.class, () -> canonical("{\"x\":1E400}"));
        assertEquals("$.x", e.path());
        ObjectNode nan = StrictJson.NODES.objectNode().put("y", Double.NaN);
        assertThrows(CanonicalJsonException.class, () -> CanonicalJson.toCanonicalString(nan));
    }

    @Test
    void duplicateKeysAndTrailingContentAreRefusedWithoutEchoingInput() {
        CanonicalJsonException dup =
                assertThrows(CanonicalJsonException.class, () -> StrictJson.parse("{\"secret\":1,\"secret\":2}"));
        assertTrue(dup.getMessage().contains("same key twice"), dup.getMessage());
        assertTrue(!dup.getMessage().contains("secret"), dup.getMessage());
        CanonicalJsonException trailing =
                assertThrows(CanonicalJsonException.class, () -> StrictJson.parse("{} {\"more\":1}"));
        assertTrue(!trailing.getMessage().contains("more"), trailing.getMessage());
        CanonicalJsonException garbage = assertThrows(CanonicalJsonException.class, () -> StrictJson.parse("hunter2"));
        assertTrue(!garbage.getMessage().contains("hunter2"), garbage.getMessage());
    }
}
