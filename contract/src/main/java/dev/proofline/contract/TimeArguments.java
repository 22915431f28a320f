package dev.proofline.contract;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * A point in time as callers write it, the same everywhere a time is asked for ({@code ?as_of=},
 * {@code replay --from}): an RFC 3339 time with its offset, or epoch milliseconds.
 */
public final class TimeArguments {
    private TimeArguments() {}

    /**
     * @throws DateTimeParseException or {@link NumberFormatException} when the text is neither
     */
    public static Instant parse(String text) {
        return !text.isEmpty() && text.chars().allMatch(Character::isDigit)
                ? Instant.ofEpochMilli(Long.parseLong(text))
                : OffsetDateTime.parse(text).toInstant();
    }
}
