package dev.proofline.query.mcp;

/**
 * Whether a JSON text holds a lone surrogate: an escape of half a surrogate pair without its other
 * half, which no UTF-8 text can carry, or such a half encoded as bytes directly. The SDK would read
 * it and echo it back (as the id of its answer) in bytes no strict client accepts. The raw bytes are
 * scanned rather than a parsed tree, so a body the strict parser refuses for another reason (a key
 * twice, nesting too deep) is still caught.
 */
final class WholeUnicode {
    private WholeUnicode() {}

    static boolean hasLoneSurrogate(byte[] json) {
        for (int i = 0; i < json.length; i++) {
            byte b = json[i];
            if (b == (byte) 0xED && i + 1 < json.length && (json[i + 1] & 0xE0) == 0xA0) {
                return true; // U+D800..U+DFFF written as UTF-8 bytes (CESU-8)
            }
            if (b != '\\' || i + 1 >= json.length) {
                continue;
            }
            if (json[i + 1] != 'u') {
                i++; // an escaped character: a backslash escaped this way starts nothing
                continue;
            }
            int unit = hex4(json, i + 2);
            if (unit < 0) {
                i++;
                continue; // not an escape JSON allows; the parser refuses it
            }
            if (Character.isLowSurrogate((char) unit)) {
                return true;
            }
            if (Character.isHighSurrogate((char) unit)) {
                int next = i + 7 < json.length && json[i + 6] == '\\' && json[i + 7] == 'u' ? hex4(json, i + 8) : -1;
                if (next < 0 || !Character.isLowSurrogate((char) next)) {
                    return true;
                }
                i += 11;
            } else {
                i += 5;
            }
        }
        return false;
    }

    /** The four hex digits at {@code from} as a number, or -1. */
    private static int hex4(byte[] json, int from) {
        if (from + 4 > json.length) {
            return -1;
        }
        int value = 0;
        for (int k = from; k < from + 4; k++) {
            int digit = Character.digit(json[k], 16);
            if (digit < 0) {
                return -1;
            }
            value = value << 4 | digit;
        }
        return value;
    }
}
