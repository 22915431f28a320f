package dev.proofline.client;

/**
 * A caller key as it goes into an {@code Authorization} header. The JDK refuses a header value with
 * a line break and quotes the whole value in its exception, so a key read from a file with its
 * trailing newline would end up in the caller's logs; it is trimmed here, and anything else a
 * header cannot carry is refused with a message that never contains the key.
 */
final class CallerKeys {
    private CallerKeys() {}

    static String headerSafe(String key) {
        String trimmed = key.replaceAll("^[ \t\r\n]+|[ \t\r\n]+$", ""); // as the Python client trims
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("the API key is empty");
        }
        for (int i = 0; i < trimmed.length(); i++) {
            char c = trimmed.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw new IllegalArgumentException("the API key has a character that is not visible ASCII at position "
                        + i + " (the key is not shown); send the token as `proofline caller add` printed it");
            }
        }
        return trimmed;
    }
}
