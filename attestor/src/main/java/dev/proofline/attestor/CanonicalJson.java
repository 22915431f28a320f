package dev.proofline.attestor;

import tools.jackson.databind.JsonNode;

/**
 * RFC 8785 (JSON Canonicalization Scheme) over Jackson trees: object keys sorted by UTF-16 code
 * units, no insignificant whitespace, strings with only the escapes JSON requires, and numbers
 * printed as ECMAScript prints a double. {@link CanonicalWriter} does the writing.
 *
 * <p>Values without a canonical form are refused with a {@link CanonicalJsonException} naming
 * their path: lone surrogates (they cannot be encoded as UTF-8) and non-finite numbers.
 */
public final class CanonicalJson {
    private CanonicalJson() {}

    public static String toCanonicalString(JsonNode node) {
        return new CanonicalWriter(256).value(node).toString();
    }

    public static byte[] toCanonicalBytes(JsonNode node) {
        return new CanonicalWriter().value(node).toByteArray();
    }
}
