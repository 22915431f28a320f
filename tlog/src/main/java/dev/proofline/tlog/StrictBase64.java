package dev.proofline.tlog;

import java.util.Base64;

/**
 * Standard base64 with its padding, as the C2SP formats require (RFC 4648, section 4) and Go's
 * {@code base64.StdEncoding} reads: Java's decoder alone also takes text without its padding, so a
 * note or proof Go refuses would pass here.
 */
final class StrictBase64 {
    private StrictBase64() {}

    /** @throws IllegalArgumentException when {@code text} is not padded standard base64 */
    static byte[] decode(String text) {
        if (text.length() % 4 != 0) {
            throw new IllegalArgumentException("base64 without its padding");
        }
        return Base64.getDecoder().decode(text);
    }
}
