package dev.proofline.query.http;

import dev.proofline.contract.ErrorCode;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.FieldProblem;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Whether a raw query string decodes: every {@code %} starts two hex digits, and the bytes they
 * stand for are UTF-8. The servlet layer drops a parameter it cannot decode without a word, so
 * {@code ?limit=%zz} would be answered as if no limit were asked, and {@code ?as_of=%zz} as now:
 * an answer to a question the caller did not ask. Such a query is refused instead, as a path that
 * cannot be decoded is.
 */
final class QueryText {
    private QueryText() {}

    /** The 400 for a query string that does not decode; the document names {@code query}. */
    static final ErrorDocument UNDECODABLE = new ErrorDocument(
            ErrorCode.INVALID_REQUEST,
            "The query string cannot be decoded.",
            List.of(new FieldProblem(
                    "query",
                    "has a % not followed by two hex digits, or escapes bytes that are not UTF-8",
                    "Percent-encode the UTF-8 bytes of each parameter (RFC 3986), e.g. %25 for a literal %.")));

    /**
     * The 400 for a query sent with a {@code Content-Type} naming a charset other than UTF-8:
     * Javalin decodes query parameters in that charset, and drops them without a word when it
     * names none it knows, so {@code ?limit=0} would be answered as if no limit were asked.
     */
    static final ErrorDocument FOREIGN_CHARSET = new ErrorDocument(
            ErrorCode.INVALID_REQUEST,
            "The query string is read as UTF-8, and Content-Type names another charset.",
            List.of(new FieldProblem(
                    "Content-Type",
                    "names a charset other than UTF-8",
                    "Send charset=utf-8, or no charset (and no Content-Type on a request without a body).")));

    /**
     * Whether {@code contentType} (null: none) names no charset, or UTF-8, as Javalin reads it: any
     * parameter whose name starts with {@code charset} counts, and its value loses only quotes that
     * surround it whole.
     */
    static boolean charsetIsUtf8(String contentType) {
        if (contentType == null) {
            return true;
        }
        String[] parts = contentType.split(";");
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].trim();
            if (!parameter.toLowerCase(java.util.Locale.ROOT).startsWith("charset")) {
                continue;
            }
            int equals = parameter.indexOf('=');
            String value = equals < 0 ? "" : parameter.substring(equals + 1).trim();
            if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                value = value.substring(1, value.length() - 1);
            }
            if (!value.equalsIgnoreCase("utf-8") && !value.equalsIgnoreCase("utf8")) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code raw} (as sent, before any decoding; null when there is none) decodes. */
    static boolean decodes(String raw) {
        if (raw == null || raw.indexOf('%') < 0) {
            return true; // nothing escaped: the request line's characters are already checked by Jetty
        }
        ByteBuffer bytes = ByteBuffer.allocate(raw.length() * 3);
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length()) {
                    return false;
                }
                int high = Character.digit(raw.charAt(i + 1), 16);
                int low = Character.digit(raw.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    return false;
                }
                bytes.put((byte) (high << 4 | low));
                i += 2;
            } else {
                bytes.put(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        bytes.flip();
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(bytes);
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
