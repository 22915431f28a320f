package dev.proofline.engine;

/**
 * One failed check, with everything the receipt's lists need: the check name, where
 * ({@code path} as {@code $.a.b}, {@code field} as the caller wrote it), what was expected and found,
 * and a one-line {@code detail}. {@code blocking} failures fail the result; the rest are warnings.
 */
public record Finding(
        Source source,
        String check,
        String path,
        String field,
        String expected,
        String found,
        String detail,
        boolean blocking,
        String errorPrefix) {

    public enum Source {
        SCHEMA,
        INTEGRITY;

        public String wireName() {
            return name().toLowerCase();
        }
    }

    /** The human sentence of the receipt's {@code errors} list. */
    public String message() {
        return errorPrefix + check + " at '" + field + "': " + detail;
    }

    /**
     * At least as many bytes as this finding's texts take in any of the receipt's lists, as
     * canonical JSON: each character counted as its UTF-8 bytes, or as its escape when JSON needs
     * one. The texts appear at most twice in one entry (an error's message repeats field and detail).
     */
    long encodedBound() {
        return 2
                        * (JsonTextSize.of(path)
                                + JsonTextSize.of(field)
                                + JsonTextSize.of(expected)
                                + JsonTextSize.of(found)
                                + JsonTextSize.of(detail)
                                + JsonTextSize.of(errorPrefix)
                                + JsonTextSize.of(check))
                + ENTRY_OVERHEAD;
    }

    /** The keys, quotes and separators around an entry's texts, generously. */
    private static final int ENTRY_OVERHEAD = 160;

    /** The quick upper bound: six bytes per character, the longest escape. */
    long quickBound() {
        return 6L
                        * 2
                        * (length(path)
                                + length(field)
                                + length(expected)
                                + length(found)
                                + length(detail)
                                + length(errorPrefix)
                                + length(check))
                + ENTRY_OVERHEAD;
    }

    /** The characters of its texts: what keeping it costs ({@link CheckTally}). */
    long textLength() {
        return (long) length(path)
                + length(field)
                + length(expected)
                + length(found)
                + length(detail)
                + length(errorPrefix)
                + length(check);
    }

    private static int length(String text) {
        return text == null ? 0 : text.length();
    }
}
