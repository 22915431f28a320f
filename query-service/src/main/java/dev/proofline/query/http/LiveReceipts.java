package dev.proofline.query.http;

import dev.proofline.access.CallerKeys;
import dev.proofline.access.CallerRole;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.FieldProblem;
import dev.proofline.contract.ScoredAgents;
import dev.proofline.query.Answer;
import dev.proofline.query.access.AccessFilter;
import dev.proofline.query.discovery.DiscoveryDocuments;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.CorrelatedReplies;
import dev.proofline.schemas.avro.Receipt;
import io.javalin.config.JavalinConfig;
import io.javalin.http.HandlerType;
import io.javalin.http.sse.SseClient;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live feed at {@code GET /feed/receipts} (server-sent events, operators only:
 * {@code docs/access.md}). A pipeline can sign thousands
 * of receipts a second, more than a browser should render, so the feed ticks twice a second: each
 * {@code receipts} event says how many receipts landed since the last tick and carries the newest
 * {@value #PER_TICK} of them, signed, for the page to check.
 */
public final class LiveReceipts implements Consumer<CorrelatedReplies.Reply>, RouteGroup, AutoCloseable {
    public static final String PATH = DiscoveryDocuments.LIVE_FEED_PATH;
    private static final Logger LOG = LoggerFactory.getLogger(LiveReceipts.class);
    static final int PER_TICK = 10;
    private static final long TICK_MILLIS = 500;
    private static final long KEEP_ALIVE_MILLIS = 15_000;
    /** A write to one client this long under way means it stopped reading (events are a few KiB). */
    static final long SLOW_WRITE_NANOS = TimeUnit.SECONDS.toNanos(3);

    /** Each connected client and when it connected. */
    private final Map<SseClient, Connection> clients = new ConcurrentHashMap<>();

    private final CallerKeys keys;

    private final AvroSerde<Receipt> receipts;
    private final int maxClients;
    private final long maxConnectedMillis;
    /** The newest records as read, decoded only when sent: most receipts are counted, never shown. */
    private final ArrayDeque<byte[]> newest = new ArrayDeque<>(PER_TICK);

    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "proofline-live-feed");
        t.setDaemon(true);
        return t;
    });
    /** One thread per write under way, at most one per client (see {@link #send}); idle ones end. */
    private final ExecutorService writers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "proofline-live-feed-writer");
        t.setDaemon(true);
        return t;
    });

    private final AtomicLong slowClosed = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private long landed;
    private long lastSentAt = System.currentTimeMillis();

    /**
     * @param maxClients   connections served at once; more are refused with 503 {@code server_busy}
     * @param maxConnected how long one connection is kept; then it is closed and the browser's
     *                     EventSource reconnects, so abandoned connections never pile up
     */
    public LiveReceipts(AvroSerde<Receipt> receipts, CallerKeys keys, int maxClients, Duration maxConnected) {
        this(receipts, keys, maxClients, maxConnected, Duration.ofMillis(TICK_MILLIS));
    }

    /** With another tick: tests take events themselves. */
    LiveReceipts(AvroSerde<Receipt> receipts, CallerKeys keys, int maxClients, Duration maxConnected, Duration tick) {
        this.receipts = receipts;
        this.keys = keys;
        this.maxClients = maxClients;
        this.maxConnectedMillis = maxConnected.toMillis();
        // With a fixed delay, not rate: after a pause the ticker does not run the ticks it missed back to back.
        ticker.scheduleWithFixedDelay(this::tick, tick.toMillis(), tick.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void accept(CorrelatedReplies.Reply record) {
        // test- receipts go back to their caller only (receipts are keyed by agent id): never broadcast.
        if (!record.isReceipt() || ScoredAgents.isTestAgent(record.key())) {
            return;
        }
        byte[] receipt = record.value();
        landed++;
        if (newest.size() == PER_TICK) {
            newest.removeFirst();
        }
        newest.addLast(receipt);
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.routes.before(PATH, ctx -> {
            String accept = ctx.header("Accept");
            if (accept == null || !accept.equals(EventStreamAccept.EVENT_STREAM)) {
                // An Accept that allows an event stream reaches here as exactly that
                // (EventStreamAccept); Javalin would answer another with an empty 200 and no stream.
                ErrorDocument error = ErrorDocument.invalidRequest(List.of(new FieldProblem(
                        "Accept",
                        "does not accept a server-sent event stream, the only form of the live feed",
                        "Send Accept: text/event-stream (an EventSource does).")));
                Responses.send(ctx, new Answer(406, error.toJson(406).toString(), null));
                ctx.skipRemainingHandlers();
                return;
            }
            if (clients.size() >= maxClients) {
                Responses.send(ctx, Answer.error(ErrorDocument.serverBusy()));
                ctx.skipRemainingHandlers();
                return;
            }
            if (ctx.method() == HandlerType.HEAD) {
                // GET's status and headers (RFC 9110), without opening a stream nobody reads.
                ctx.status(200).contentType(EventStreamAccept.EVENT_STREAM + ";charset=utf-8");
                ctx.header("X-Accel-Buffering", "no").header("Connection", "close");
                // Sent now, so no Content-Length is added: a stream has none, and HEAD says what GET would.
                ctx.res().flushBuffer();
                ctx.skipRemainingHandlers();
            }
        });
        cfg.routes.sse(PATH, client -> {
            client.keepAlive();
            // The key that opened the stream, looked up again at every tick: a stream outlives the
            // request the access filter checked, and a revoked operator must stop reading at once.
            String authorization = client.ctx().header("Authorization");
            String token = authorization == null
                    ? null
                    : AccessFilter.bearer(authorization).orElse(null);
            clients.put(client, new Connection(System.currentTimeMillis(), token));
            client.onClose(() -> clients.remove(client));
        });
    }

    /** Connections served now. */
    public int clientCount() {
        return clients.size();
    }

    private void tick() {
        try {
            long now = System.currentTimeMillis();
            closeLongConnectedOrRevoked(now);
            Landed landed = takeLanded();
            boolean keepAlive = landed == null && now - lastSentAt >= KEEP_ALIVE_MILLIS;
            if (landed != null || keepAlive) {
                lastSentAt = now;
            }
            send(landed != null ? landed : Landed.NOTHING, keepAlive);
        } catch (RuntimeException e) {
            // A scheduled task that throws is never run again: one bad tick must not end the feed.
            LOG.warn("the live feed skipped a tick: {}", e.toString());
        }
    }

    /** The {@code receipts} event for what landed since the last call, or null when nothing did. */
    String takeEvent() {
        Landed landed = takeLanded();
        return landed == null ? null : landed.event(landed.count());
    }

    /**
     * How many receipts landed since the last call and the newest of them, or null when none did.
     * Bytes on the receipts topic that are not a receipt (not Proofline's: the stream threads skip
     * them with a log line of their own) are neither shown nor counted.
     */
    private Landed takeLanded() {
        long count;
        List<byte[]> records;
        synchronized (this) {
            count = landed;
            records = new ArrayList<>(newest);
            landed = 0;
            newest.clear();
        }
        // Decoded outside the lock: the reader thread that fills it is never held up.
        List<Receipt> batch = new ArrayList<>(records.size());
        for (byte[] record : records) {
            try {
                batch.add(receipts.deserialize(record));
            } catch (RuntimeException notAReceipt) {
                count--;
            }
        }
        return count > 0 ? new Landed(count, receiptsArray(batch)) : null;
    }

    /** What landed in one tick: how many, and the newest of them as the event's JSON array. */
    private record Landed(long count, String receipts) {
        static final Landed NOTHING = new Landed(0, "[]");

        /** The event's data, saying {@code count} landed: this tick's, or more for a reader that skipped ticks. */
        String event(long count) {
            return "{\"count\":" + count + ",\"receipts\":" + receipts + "}";
        }
    }

    /**
     * The browser's EventSource reconnects; a forgotten tab holds a connection for a bounded time only.
     * A stream whose key is no longer an active operator's is closed at the next tick.
     */
    private void closeLongConnectedOrRevoked(long now) {
        clients.forEach((client, connection) -> {
            if (now - connection.since() > maxConnectedMillis || !stillAllowed(connection)) {
                clients.remove(client);
                closeOnWriter(client);
            }
        });
    }

    private boolean stillAllowed(Connection connection) {
        if (connection.token() == null) {
            return true; // not opened through the access filter (tests); nothing to look up
        }
        return keys.byToken(connection.token())
                .filter(key -> key.role() == CallerRole.OPERATOR)
                .isPresent();
    }

    /**
     * A client: when it connected, the bearer token it opened the stream with, since when a write to
     * it has been under way ({@link System#nanoTime}; {@link #IDLE} when none is), and how many
     * landed receipts it has not been told of (it was busy when they were due; only the ticker
     * reads and writes this).
     */
    private record Connection(long since, String token, AtomicLong writingSince, AtomicLong untold) {
        static final long IDLE = Long.MIN_VALUE;

        Connection(long since, String token) {
            this(since, token, new AtomicLong(IDLE), new AtomicLong());
        }
    }

    /**
     * Hands each client its event on a thread of its own: a write blocks while the client's socket is
     * full, and a reader that stopped reading would otherwise hold up every other client's feed (and
     * the revocation check) until the connection timed out. At most one write per client is under way:
     * a client still taking the last event when the next is due skips it, and the next event it gets
     * counts what it skipped (with nothing new, an event of that count alone), so a reader's counts
     * add up to every receipt that landed. One whose write has taken longer than
     * {@link #SLOW_WRITE_NANOS} has stopped reading: it is closed, and its EventSource reconnects.
     */
    private void send(Landed landed, boolean keepAlive) {
        long now = System.nanoTime();
        String shared = landed.count() > 0 ? landed.event(landed.count()) : null;
        clients.forEach((client, connection) -> {
            if (client.terminated()) {
                clients.remove(client);
                return;
            }
            long writingSince = connection.writingSince().get();
            if (writingSince != Connection.IDLE) {
                if (now - writingSince > SLOW_WRITE_NANOS) {
                    clients.remove(client);
                    slowClosed.incrementAndGet();
                    closeOnWriter(client);
                } else if (landed.count() > 0) {
                    connection.untold().addAndGet(landed.count());
                    skipped.incrementAndGet();
                }
                return;
            }
            long untold = connection.untold().getAndSet(0);
            if (landed.count() + untold == 0 && !keepAlive) {
                return;
            }
            String event = untold == 0 ? shared : landed.event(landed.count() + untold);
            connection.writingSince().set(now); // only the ticker starts writes
            writers.execute(() -> {
                try {
                    if (event != null) {
                        client.sendEvent("receipts", event);
                    } else {
                        client.sendComment("keep-alive"); // proxies close idle connections
                    }
                } catch (RuntimeException gone) {
                    clients.remove(client); // its connection broke under the write: ended, not left open
                    closeOnWriter(client);
                } finally {
                    connection.writingSince().set(Connection.IDLE);
                }
            });
        });
    }

    /**
     * Closes a client, not on the ticker: a close may wait on a full socket. Closing one whose write
     * is blocked fails that write and the close with it (Jetty's "completed whilst write blocked"),
     * which is what closing it is for: not a stack trace on stderr.
     */
    private void closeOnWriter(SseClient client) {
        writers.execute(() -> {
            try {
                client.close();
            } catch (RuntimeException expected) {
                // the stalled write is cancelled; the connection is gone either way
            }
        });
    }

    /** Events a client was still too busy with the last one to take, since start (their counts were kept). */
    long eventsSkipped() {
        return skipped.get();
    }

    /** Clients closed for reading too slowly, since start. */
    public long slowClientsClosed() {
        return slowClosed.get();
    }

    /** The event's {@code receipts} array: the signed receipts embedded exactly as signed. */
    private static String receiptsArray(List<Receipt> batch) {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < batch.size(); i++) {
            json.append(i == 0 ? "" : ",").append(batch.get(i).getSignedJson());
        }
        return json.append("]").toString();
    }

    /** Stops the ticker; the HTTP server closes the connections themselves when it stops. */
    @Override
    public void close() {
        ticker.shutdownNow();
        writers.shutdownNow();
        clients.clear();
    }
}
