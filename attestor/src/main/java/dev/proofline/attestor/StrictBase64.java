package dev.proofline.attestor;

import java.util.Base64;

/**
 * Standard base64 with its padding (RFC 4648, section 4), as receipts' signatures and the C2SP
 * formats are written and as Python's {@code b64decode(validate=True)} and Go's
 * {@code base64.StdEncoding} read them: Java's decoder alone also takes text without its padding, so
 * a signature, note or proof other verifiers refuse would pass here.
 */
public final class StrictBase64 {
    private StrictBase64() {}

    /** @throws IllegalArgumentException when {@code text} is not padded standard base64 */
    public static byte[] decode(String text) {
        if (text.length() % 4 != 0) {
            throw new IllegalArgumentException("base64 without its padding");
        }
        return Base64.getDecoder().decode(text);
    }
}
