package dev.proofline.contract;

/**
 * Shortens a caller's text for a message without splitting a character. A cut between the two
 * halves of a surrogate pair (an emoji) leaves a lone surrogate, which has no UTF-8 form: a receipt
 * holding one cannot be canonicalized or signed, and an error document holding one cannot be sent.
 */
public final class ShortText {
    private ShortText() {}

    /** {@code text} when it has at most {@code max} chars; else its start and {@code ...}, within {@code max}. */
    public static String atMost(String text, int max) {
        return text.length() <= max ? text : prefix(text, max - 3) + "...";
    }

    /** The first {@code length} chars of {@code text}, one fewer where the cut would split a surrogate pair. */
    public static String prefix(String text, int length) {
        int end = Math.min(Math.max(length, 0), text.length());
        if (end > 0
                && end < text.length()
                && Character.isHighSurrogate(text.charAt(end - 1))
                && Character.isLowSurrogate(text.charAt(end))) {
            end--;
        }
        return text.substring(0, end);
    }
}
