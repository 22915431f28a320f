package dev.proofline.attestor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
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
    void integersBeyondTwoToThe53ArePrintedAsTheDoublesTheyBecomeAtBothEndsOfALong() {
        // Math.abs(Long.MIN_VALUE) is negative: -2^63 once passed for exact and was printed digit for digit.
        assertEquals(
                "[-9223372036854776000,9223372036854776000,-9007199254740992,-9007199254740992,9007199254740992]",
                canonical("[-9223372036854775808, 9223372036854775807, -9007199254740992, -9007199254740993,"
                        + " 9007199254740993]"));
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

    /**
     * The writer encodes strings itself (a plain loop for ASCII, its own UTF-8 for the rest), so it
     * is checked against the JDK's encoder on random strings from every plane, with every character
     * that must be escaped and every length of run between them.
     */
    @Test
    void stringsAreTheJdksUtf8WithOnlyTheRequiredEscapes() {
        Random random = new Random(8785);
        for (int n = 0; n < 20_000; n++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(40);
            for (int i = 0; i < length; i++) {
                switch (random.nextInt(6)) {
                    case 0 -> text.append((char) random.nextInt(0x20)); // control characters
                    case 1 -> text.append("\"\\/".charAt(random.nextInt(3)));
                    case 2 -> text.append((char) (0x80 + random.nextInt(0x780))); // two UTF-8 bytes
                    case 3 -> text.append((char) (0x800 + random.nextInt(0xD800 - 0x800))); // three
                    case 4 -> text.appendCodePoint(0x10000 + random.nextInt(0x100000)); // four, a pair
                    default -> text.append((char) (0x20 + random.nextInt(0x60)));
                }
            }
            String value = text.toString();
            byte[] written = new CanonicalWriter(16).string(value).toByteArray();
            assertArrayEquals(expectedCanonical(value).getBytes(StandardCharsets.UTF_8), written);
            assertEquals(value, StrictJson.parse(written).stringValue());
        }
    }

    /**
     * Plain ASCII (0x20 to 0x7F, DEL included) is copied until the first character that needs care
     * (an escape, or more than one UTF-8 byte): every length, and that character at every position.
     */
    @Test
    void plainAsciiIsCopiedAsItIsAndOneCharacterNeedingCareAnywhereIsNot() {
        Random random = new Random(8785);
        String needCare = "\"\\\u0000\u001f\n\u0080\u00e9\u07ff\u0800\uffff";
        for (int length = 0; length < 300; length++) {
            char[] plain = new char[length];
            for (int i = 0; i < length; i++) {
                plain[i] = (char) (0x20 + random.nextInt(0x60)); // 0x20 to 0x7F
            }
            String value = new String(plain);
            assertArrayEquals(
                    expectedCanonical(value).getBytes(StandardCharsets.UTF_8),
                    new CanonicalWriter(16).string(value).toByteArray());
            for (int at = 0; at < length; at++) {
                char[] withOne = plain.clone();
                withOne[at] = needCare.charAt(random.nextInt(needCare.length()));
                String mixed = new String(withOne);
                assertArrayEquals(
                        expectedCanonical(mixed).getBytes(StandardCharsets.UTF_8),
                        new CanonicalWriter(16).string(mixed).toByteArray(),
                        mixed);
            }
        }
    }

    /** RFC 8785 section 3.2.2.2, written out character by character. */
    private static String expectedCanonical(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return out.append('"').toString();
    }

    @Test
    void partsOfOneWriterHashAsTheirOwnCanonicalForm() {
        ObjectNode inner = (ObjectNode) StrictJson.parse("{\"b\":[1,2.5,\"\u00e9\"],\"a\":null}");
        CanonicalWriter writer = new CanonicalWriter(16).ascii("{\"x\":");
        int from = writer.size();
        writer.value(inner);
        int to = writer.size();
        writer.ascii("}");
        assertEquals(Sha256.ofCanonical(inner), writer.sha256Hex(from, to));
        assertEquals("{\"x\":{\"a\":null,\"b\":[1,2.5,\"\u00e9\"]}}", writer.toString());
    }

    @Test
    void compactTextKeepsTheTreesKeyOrderAndJacksonsNumbers() {
        JsonNode receipt = StrictJson.parse(
                "{\"summary\":{\"result\":\"pass\"},\"ratio\":1.0,\"tiny\":1e-9,\"n\":22,\"a\":\"\u00e9\\n\"}");
        String text = new String(CanonicalWriter.compactInTreeOrder(receipt), StandardCharsets.UTF_8);
        assertEquals(
                "{\"summary\":{\"result\":\"pass\"},\"ratio\":1.0,\"tiny\":1.0E-9,\"n\":22,\"a\":\"\u00e9\\n\"}", text);
        assertEquals(receipt, StrictJson.parse(text));
    }
}
