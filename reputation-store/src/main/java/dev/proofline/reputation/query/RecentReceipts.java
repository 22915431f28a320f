package dev.proofline.reputation.query;

import dev.proofline.reputation.ReceiptPosition;
import dev.proofline.reputation.ReputationTopology;
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
 * <p>It also knows the verification ids of the receipts this instance just answered a REST or MCP
 * caller with: such a caller may ask for the receipt by id at once, before the receipts index
 * (built by Streams from the same committed record, a moment later) has it. An id is dropped with
 * its receipt.
 *
 * <p>Bounded by {@code maxBytes} of record values plus a small fixed overhead per entry.
 */
public final class RecentReceipts {
    /** Map entry, queue node, position and array header: about this much besides the value. */
    static final int OVERHEAD_BYTES = 128;

    private final long maxBytes;
    private final Map<ReceiptPosition, byte[]> byPosition = new ConcurrentHashMap<>();
    private final Map<String, ReceiptPosition> answeredById = new ConcurrentHashMap<>();
    private final Map<ReceiptPosition, String> answeredIdAt = new ConcurrentHashMap<>();
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
            String id = answeredIdAt.remove(oldest);
            if (id != null) {
                answeredById.remove(id);
            }
        }
    }

    public Optional<byte[]> find(ReceiptPosition position) {
        return Optional.ofNullable(byPosition.get(position));
    }

    /**
     * Remembers that the receipt kept at this position, just answered to a caller, has this
     * verification id; nothing if the receipt is not kept (the cache is off or already dropped it)
     * or if the receipts index would not hold it either (a test- agent's).
     */
    public void answered(String verificationId, String agentId, int partition, long offset) {
        ReceiptPosition position = new ReceiptPosition(partition, offset);
        if (verificationId != null && ReputationTopology.indexes(agentId) && byPosition.containsKey(position)) {
            answeredIdAt.put(position, verificationId);
            answeredById.put(verificationId, position);
            if (!byPosition.containsKey(position)) { // dropped meanwhile: forget it again
                answeredIdAt.remove(position);
                answeredById.remove(verificationId);
            }
        }
    }

    /** Where the receipt with this verification id is, if this instance answered a caller with it lately. */
    public Optional<ReceiptPosition> answeredAt(String verificationId) {
        return Optional.ofNullable(answeredById.get(verificationId));
    }

    /** Bytes held now, overhead included. */
    public long bytes() {
        return bytes.get();
    }

    public int size() {
        return byPosition.size();
    }
}
