package dev.proofline.query.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.reputation.TestReceipts;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.CorrelatedReplies;
import dev.proofline.schemas.InMemorySchemaRegistry;
import dev.proofline.schemas.avro.Receipt;
import io.javalin.Javalin;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One reader that stops reading must not hold up the feed for the others. A write to it blocks once
 * its socket is full; written on the ticker, it stopped every client's events (and the revocation
 * check) until the connection timed out, 30 s later.
 */
class LiveReceiptsSlowReaderTest {
    private static final String REQUEST =
            "GET " + LiveReceipts.PATH + " HTTP/1.1\r\nHost: proofline\r\nAccept: text/event-stream\r\n\r\n";

    @Test
    void aReaderThatStopsReadingIsClosedAndTheOthersKeepTheirEvents() throws Exception {
        // Receipts of 20 KB, ten to an event, five events a second: a stopped reader's socket fills in
        // well under a second.
        byte[] receipt = receiptOf(20_000);
        try (LiveReceipts feed = fiveTicksASecond();
                Holder server = start(feed)) {
            int port = server.javalin().port();
            try (Socket stopped = new Socket()) {
                stopped.setReceiveBufferSize(1024);
                stopped.connect(new InetSocketAddress("127.0.0.1", port));
                stopped.getOutputStream().write(REQUEST.getBytes(StandardCharsets.US_ASCII)); // never reads
                try (Socket reading = new Socket("127.0.0.1", port)) {
                    reading.getOutputStream().write(REQUEST.getBytes(StandardCharsets.US_ASCII));
                    List<Long> events = new CopyOnWriteArrayList<>();
                    Thread reader = new Thread(() -> readEvents(reading, events));
                    reader.setDaemon(true);
                    reader.start();
                    awaitClients(feed, 2);

                    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
                    while (System.nanoTime() < end) {
                        for (int i = 0; i < 10; i++) {
                            feed.accept(new CorrelatedReplies.Reply(true, null, "seller", receipt, 0, 0));
                        }
                        Thread.sleep(50);
                    }
                    long longestGap = longestGap(events, System.nanoTime());
                    // A liveness bound, not a speed figure: events are due every 200 ms.
                    assertTrue(events.size() >= 20, events.size() + " events in 8 s");
                    assertTrue(
                            longestGap < TimeUnit.SECONDS.toNanos(4),
                            "the reading client waited " + longestGap / 1_000_000 + " ms for an event");
                    assertTrue(feed.slowClientsClosed() >= 1, "the reader that stopped was closed");
                    assertEquals(1, feed.clientCount(), "the one that reads is still served");
                }
            }
        }
    }

    @Test
    void aSlowReaderSkipsEventsYetItsCountsAddUpToEveryReceipt() throws Exception {
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
        byte[] receipt = receiptOf(100_000);
        try (LiveReceipts feed = fiveTicksASecond();
                Holder server = start(feed);
                Socket slow = new Socket()) {
            slow.connect(new InetSocketAddress("127.0.0.1", server.javalin().port()));
            slow.getOutputStream().write(REQUEST.getBytes(StandardCharsets.US_ASCII));
            List<Long> counts = new CopyOnWriteArrayList<>();
            Thread reader = new Thread(() -> readCounts(slow, counts));
            reader.setDaemon(true);
            reader.start();
            awaitClients(feed, 1);

            long landed = 0;
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
            while (System.nanoTime() < end) {
                for (int i = 0; i < 10; i++) {
                    feed.accept(new CorrelatedReplies.Reply(true, null, "seller", receipt, 0, 0));
                    landed++;
                }
                Thread.sleep(50);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (sum(counts) < landed && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertEquals(0, feed.slowClientsClosed(), "a reader that keeps reading is not closed");
            assertEquals(landed, sum(counts), "the reader was told of every receipt, in " + counts.size() + " events");
            assertTrue(feed.eventsSkipped() > 0, "the reader was busy when events were due: " + counts);
            assertEquals(List.of(), uncaught, "no feed thread died");
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }

    private static final AvroSerde<Receipt> SERDE =
            new AvroSerde<>(new InMemorySchemaRegistry(), Receipt.getClassSchema());

    /** A receipt record whose signed JSON is padded to about {@code bytes}. */
    private static byte[] receiptOf(int bytes) {
        return SERDE.serialize(
                "receipts",
                Receipt.newBuilder(TestReceipts.receipt(1, "seller", "pass"))
                        .setSignedJson("{\"verification_id\":\"id-1\",\"pad\":\"" + "x".repeat(bytes) + "\"}")
                        .build());
    }

    /** A feed of up to ten readers, with an event due every 200 ms. */
    private static LiveReceipts fiveTicksASecond() {
        return new LiveReceipts(
                SERDE, token -> java.util.Optional.empty(), 10, Duration.ofMinutes(5), Duration.ofMillis(200));
    }

    private static long sum(List<Long> counts) {
        return counts.stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Reads a {@code receipts} event's count from each {@code data:} line, and after every fifth
     * event stops reading for 1.5 s, as a page busy drawing: events of 1 MB, five a second, fill its
     * socket meanwhile, and the feed's write to it blocks, though never for the 3 s that closes it.
     */
    private static void readCounts(Socket socket, List<Long> counts) {
        java.util.regex.Pattern count = java.util.regex.Pattern.compile("^data: \\{\"count\":(\\d+),");
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8), 1 << 16)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                java.util.regex.Matcher m = count.matcher(line);
                if (m.find()) {
                    counts.add(Long.parseLong(m.group(1)));
                    if (counts.size() % 5 == 0) {
                        Thread.sleep(1500);
                    }
                }
            }
        } catch (java.io.IOException | InterruptedException closed) {
            // the test is over
        }
    }

    /** A Javalin serving only the feed. */
    private static Holder start(LiveReceipts feed) {
        return new Holder(Javalin.create(feed::mount).start("127.0.0.1", 0));
    }

    public record Holder(Javalin javalin) implements AutoCloseable {
        @Override
        public void close() {
            javalin.stop();
        }
    }

    private static void readEvents(Socket socket, List<Long> events) {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8), 1 << 16)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.equals("event: receipts")) {
                    events.add(System.nanoTime());
                }
            }
        } catch (java.io.IOException closed) {
            // the test is over
        }
    }

    private static void awaitClients(LiveReceipts feed, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (feed.clientCount() < count && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(count, feed.clientCount(), "both clients connected");
    }

    /** The longest wait between events, or from the last of them to {@code now}. */
    private static long longestGap(List<Long> events, long now) {
        List<Long> times = new ArrayList<>(events);
        times.add(now);
        long longest = 0;
        for (int i = 1; i < times.size(); i++) {
            longest = Math.max(longest, times.get(i) - times.get(i - 1));
        }
        return longest;
    }
}
