package dev.proofline.contract;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * A point in time as callers write it, the same everywhere a time is asked for ({@code ?as_of=},
 * {@code replay --from}): an RFC 3339 time with its offset, or epoch milliseconds.
 */
public final class TimeArguments {
    /** RFC 3339's years are four digits: the first instant it can write. */
    public static final Instant EARLIEST = Instant.parse("0000-01-01T00:00:00Z");
    /** ... and the last. */
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999999Z");

    private TimeArguments() {}

    /**
     * @throws DateTimeParseException or {@link NumberFormatException} when the text is neither, or
     *     names a time outside RFC 3339's years 0000 to 9999. Java reads years up to nine digits, and
     *     one that far off overflows epoch milliseconds where the time is used.
     */
    public static Instant parse(String text) {
        Instant at = !text.isEmpty() && text.chars().allMatch(Character::isDigit)
                ? Instant.ofEpochMilli(Long.parseLong(text))
                : OffsetDateTime.parse(text).toInstant();
        if (at.isBefore(EARLIEST) || at.isAfter(LATEST)) {
            throw new DateTimeParseException("outside the years 0000 to 9999", text, 0);
        }
        return at;
    }
}
