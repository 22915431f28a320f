package dev.proofline.replay;

import dev.proofline.contract.TimeArguments;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which requests a replay re-verifies: from a time, or from an offset in each named partition, up to
 * a time or to the end of the topic as it was when the replay started.
 *
 * <p>A time range selects by record timestamp, exactly: the records whose timestamp is at or after
 * {@code from} and before {@code to}. Reading starts at {@code offsetsForTimes(from)}; because
 * producers set timestamps, a partition may hold an older record after a newer one, so records
 * outside the range met on the way are skipped rather than ending the read.
 *
 * @param start where reading starts
 * @param to    the first timestamp no longer replayed; empty: up to the end offsets taken at start
 */
public record ReplayRange(Start start, Optional<Instant> to) {
    /** Where reading starts in the input topic. */
    public sealed interface Start permits FromTime, FromOffsets {}

    /** Every partition, from its first record at or after this time. */
    public record FromTime(Instant time) implements Start {}

    /** The named partitions only, each from its offset. */
    public record FromOffsets(Map<Integer, Long> offsets) implements Start {
        public FromOffsets {
            offsets = Map.copyOf(offsets);
        }
    }

    public ReplayRange {
        if (start instanceof FromTime from && to.isPresent() && !to.get().isAfter(from.time())) {
            throw new IllegalArgumentException("--to must be after --from");
        }
    }

    /**
     * @param from RFC 3339 time, epoch milliseconds, or {@code P:OFFSET[,P:OFFSET...]}
     * @param to   RFC 3339 time, epoch milliseconds, or {@code end}
     */
    public static ReplayRange parse(String from, String to) {
        Start start =
                from.contains(":") && from.matches("[0-9:,\\s]+") ? offsets(from) : new FromTime(time("--from", from));
        Optional<Instant> until = to == null || to.equals("end") ? Optional.empty() : Optional.of(time("--to", to));
        return new ReplayRange(start, until);
    }

    /** Whether a record read on the way belongs to the range. */
    public boolean includes(long timestamp) {
        if (start instanceof FromTime from && timestamp < from.time().toEpochMilli()) {
            return false;
        }
        return to.isEmpty() || timestamp < to.get().toEpochMilli();
    }

    private static FromOffsets offsets(String text) {
        Map<Integer, Long> offsets = new TreeMap<>();
        for (String part : text.split(",", -1)) {
            String[] pair = part.trim().split(":", -1);
            try {
                if (pair.length != 2) {
                    throw new NumberFormatException();
                }
                int partition = Integer.parseInt(pair[0]);
                long offset = Long.parseLong(pair[1]);
                if (partition < 0 || offset < 0) {
                    throw new NumberFormatException();
                }
                if (offsets.put(partition, offset) != null) {
                    throw new IllegalArgumentException("--from names partition " + partition + " twice");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "--from '" + part + "' is not PARTITION:OFFSET (two non-negative integers)");
            }
        }
        return new FromOffsets(offsets);
    }

    private static Instant time(String option, String text) {
        try {
            return TimeArguments.parse(text);
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException(option + " '" + text
                    + "' is not a time: use RFC 3339 (2026-11-30T12:00:00Z) or epoch milliseconds");
        }
    }
}
