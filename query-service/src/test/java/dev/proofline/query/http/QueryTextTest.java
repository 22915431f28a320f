package dev.proofline.query.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueryTextTest {
    @Test
    void aQueryDecodesWhenEveryEscapeIsTwoHexDigitsOfUtf8() {
        for (String raw : List.of(
                "limit=50",
                "as_of=2026-01-01T00%3A00%3A00Z",
                "agent=%C3%A9t%C3%A9&x=%e2%98%83",
                "a=%25",
                "a=b+c",
                "")) {
            assertTrue(QueryText.decodes(raw), raw);
        }
        assertTrue(QueryText.decodes(null));
    }

    @Test
    void aStrayPercentOrEscapedBytesThatAreNotUtf8DoNot() {
        for (String raw : List.of(
                "limit=%zz",
                "as_of=%",
                "as_of=%4",
                "a=%G0",
                "a=%C3", // a lead byte without its continuation
                "a=%FF",
                "a=%ED%A0%80", // an encoded surrogate
                "a=%C0%AF", // overlong
                "ok=1&bad=%x1")) {
            assertFalse(QueryText.decodes(raw), raw);
        }
    }

    @Test
    void aQueryIsReadAsUtf8SoAContentTypeNamingAnotherCharsetIsRefused() {
        for (String utf8 : new String[] {
            null, "application/json", "application/json; charset=utf-8", "text/plain;CHARSET=\"UTF-8\"", "a/b; x=1"
        }) {
            assertTrue(QueryText.charsetIsUtf8(utf8), utf8);
        }
        for (String other : new String[] {
            "text/plain; charset=nope",
            "text/plain; charset",
            "text/plain; charset=",
            "a/b; charset=iso-8859-1",
            "a/b; x=1; charset=utf-16",
            "text/plain; charsetx=nope",
            "text/plain; charsetx",
            "a/b; charset=\"utf-8"
        }) {
            assertFalse(QueryText.charsetIsUtf8(other), other);
        }
    }
}
