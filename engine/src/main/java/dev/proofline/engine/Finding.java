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
}
