package dev.proofline.contract;

import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.time.Year;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * The form of every time Proofline signs (a receipt's {@code verified_at}, a score's {@code as_of}):
 * ISO-8601 UTC with microseconds and {@code +00:00}, e.g. {@code 2026-10-01T01:01:09.606993+00:00}.
 * Written and read by hand: {@code java.time}'s formatter took 2.4% of the engine's time per
 * receipt, and its parser a few per cent of a stream thread, which reads every receipt's time twice.
 */
public final class ReceiptTimes {
    /** {@code java.time}'s pattern of the form: the reference, and the printer of years outside 0000-9999. */
    public static final DateTimeFormatter FORM =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSxxx").withZone(ZoneOffset.UTC);
    /** What {@link #epochMicros} answers for any text not in the form (no time in the form is negative). */
    public static final long NOT_IN_FORM = -1;

    private static final String LAYOUT = "0000-00-00T00:00:00.000000+00:00";
    private static final long SECONDS_PER_DAY = 86_400L;

    private ReceiptTimes() {}

    /** The form of an instant, truncated to microseconds. */
    public static String format(Instant instant) {
        long seconds = instant.getEpochSecond();
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(seconds, SECONDS_PER_DAY));
        if (date.getYear() < 0 || date.getYear() > 9999) { // ISO years: 0000 is 1 BC, as RFC 3339 reads it
            return FORM.format(instant.truncatedTo(ChronoUnit.MICROS));
        }
        int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
        char[] text = LAYOUT.toCharArray();
        digits(text, 0, 4, date.getYear());
        digits(text, 5, 2, date.getMonthValue());
        digits(text, 8, 2, date.getDayOfMonth());
        digits(text, 11, 2, secondOfDay / 3600);
        digits(text, 14, 2, secondOfDay / 60 % 60);
        digits(text, 17, 2, secondOfDay % 60);
        digits(text, 20, 6, instant.getNano() / 1000);
        return new String(text);
    }

    /** The form of a time given in microseconds since the epoch. */
    public static String format(long epochMicros) {
        return format(Instant.ofEpochSecond(
                Math.floorDiv(epochMicros, 1_000_000L), Math.floorMod(epochMicros, 1_000_000L) * 1_000L));
    }

    /**
     * Microseconds since the epoch of a time in the form, years 1970 to 9999, or {@link #NOT_IN_FORM}
     * for anything else (another offset or precision, a day that does not exist), which the caller
     * may hand to {@code java.time}. Every field has a fixed width and is range-checked, so
     * {@link #format(long)} gives back exactly the text read.
     */
    public static long epochMicros(String s) {
        if (s.length() != LAYOUT.length()
                || s.charAt(4) != '-'
                || s.charAt(7) != '-'
                || s.charAt(10) != 'T'
                || s.charAt(13) != ':'
                || s.charAt(16) != ':'
                || s.charAt(19) != '.'
                || !s.startsWith("+00:00", 26)) {
            return NOT_IN_FORM;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        int second = digits(s, 17, 2);
        int micros = digits(s, 20, 6);
        if (year < 1970
                || micros < 0
                || month < 1
                || month > 12
                || day < 1
                || day > Month.of(month).length(Year.isLeap(year))
                || hour < 0
                || hour > 23
                || minute < 0
                || minute > 59
                || second < 0
                || second > 59) {
            return NOT_IN_FORM;
        }
        long secondOfDay = hour * 3_600L + minute * 60L + second;
        return (LocalDate.of(year, month, day).toEpochDay() * SECONDS_PER_DAY + secondOfDay) * 1_000_000L + micros;
    }

    /** Writes {@code value} as {@code count} decimal digits ending at {@code from + count}, zero-padded. */
    private static void digits(char[] text, int from, int count, int value) {
        for (int at = from + count - 1; at >= from; at--, value /= 10) {
            text[at] = (char) ('0' + value % 10);
        }
    }

    /** The decimal number in {@code count} ASCII digits from {@code from}, or -1. */
    private static int digits(String s, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
