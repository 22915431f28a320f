package dev.proofline.engine;

/** How many bytes a string takes inside an RFC 8785 JSON string, quotes excluded, at most. */
final class JsonTextSize {
    private JsonTextSize() {}

    static long of(String text) {
        if (text == null) {
            return 0;
        }
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20) {
                bytes += 6; // \\u00XX; \\n and the like are shorter
            } else if (c == '"' || c == '\\') {
                bytes += 2;
            } else if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else {
                bytes += 3; // a surrogate pair is 4 bytes for its two chars: 6 here
            }
        }
        return bytes;
    }
}
