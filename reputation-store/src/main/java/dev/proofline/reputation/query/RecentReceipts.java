package dev.proofline.reputation.query;

import dev.proofline.reputation.ReceiptPosition;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The newest receipts as read from the receipts topic, by position, up to a number of bytes: what
 * the dashboard and {@code GET /agents/{id}/receipts} ask for is almost always recent, and a record
 * at a position never changes, so a hit needs no check. The oldest are dropped first. Fed by a reader
 * of committed records only, so nothing here was ever aborted.
 *
 * <p>Bounded by {@code maxBytes} of record values plus a small fixed overhead per entry.
 */
public final class RecentReceipts {
    /** Map entry, queue node, position and array header: about this much besides the value. */
    static final int OVERHEAD_BYTES = 128;

    private final long maxBytes;
    private final Map<ReceiptPosition, byte[]> byPosition = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<ReceiptPosition> oldestFirst = new ConcurrentLinkedQueue<>();
    private final AtomicLong bytes = new AtomicLong();

    public RecentReceipts(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Keeps a receipt record's value (Avro, as read) at its position, dropping the oldest past the bound. */
    public void add(int partition, long offset, byte[] value) {
        if (maxBytes <= 0 || value == null) {
            return;
        }
        ReceiptPosition position = new ReceiptPosition(partition, offset);
        if (byPosition.putIfAbsent(position, value) != null) {
            return;
        }
        oldestFirst.add(position);
        bytes.addAndGet(value.length + OVERHEAD_BYTES);
        while (bytes.get() > maxBytes) {
            ReceiptPosition oldest = oldestFirst.poll();
            if (oldest == null) {
                break;
            }
            byte[] dropped = byPosition.remove(oldest);
            if (dropped != null) {
                bytes.addAndGet(-(dropped.length + OVERHEAD_BYTES));
            }
        }
    }

    public Optional<byte[]> find(ReceiptPosition position) {
        return Optional.ofNullable(byPosition.get(position));
    }

    /** Bytes held now, overhead included. */
    public long bytes() {
        return bytes.get();
    }

    public int size() {
        return byPosition.size();
    }
}
