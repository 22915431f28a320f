package dev.proofline.replay;

/**
 * Paces a replay to a steady number of records per second, so re-verifying last month never takes
 * the cores and the broker's attention from the live pipeline. Pacing is against the start time, not
 * the previous record, so a slow record is made up for and the average holds.
 */
final class Throttle {
    private final double nanosPerRecord;
    private long started;
    private long records;

    /** @param perSecond at most this many records a second; 0 for no limit */
    Throttle(int perSecond) {
        if (perSecond < 0) {
            throw new IllegalArgumentException("a rate is not negative");
        }
        this.nanosPerRecord = perSecond == 0 ? 0 : 1e9 / perSecond;
    }

    void acquire() throws InterruptedException {
        if (nanosPerRecord == 0) {
            return;
        }
        long now = System.nanoTime();
        if (records == 0) {
            started = now;
        }
        long due = started + (long) (records * nanosPerRecord);
        records++;
        long wait = due - now;
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }
}
