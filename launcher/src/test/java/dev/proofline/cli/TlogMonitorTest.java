package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.proofline.query.tlog.PublishedLog;
import dev.proofline.tlog.Checkpoint;
import dev.proofline.tlog.LogAppender;
import dev.proofline.tlog.LogRecords;
import dev.proofline.tlog.MerkleHashes;
import dev.proofline.tlog.NoteKey;
import dev.proofline.tlog.TilePath;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tlog monitor} against a log served over HTTP the way Proofline serves it: growth is
 * accepted, and a fork, a rewritten root, a shrunk log and a foreign signature are each refused.
 */
class TlogMonitorTest {
    private static final NoteKey KEY = new NoteKey("monitor.test/proofline", MerkleHashes.sha256(new byte[] {7}));

    /** A log as the sequencer publishes it: its records by key. */
    private static final class ServedLog {
        final Map<String, byte[]> records = new HashMap<>();
        final Map<String, byte[]> state = new HashMap<>();
        final LogAppender appender = new LogAppender(LogAppender.Store.of(state));

        ServedLog grow(int entries, long seed, NoteKey key) {
            for (int i = 0; i < entries; i++) {
                appender.append(MerkleHashes.sha256(ByteBuffer.allocate(16)
                        .putLong(seed)
                        .putLong(appender.size())
                        .array()));
            }
            Map<String, byte[]> tiles = appender.tilesToPublish();
            records.putAll(tiles);
            appender.published(tiles);
            records.put(
                    LogRecords.CHECKPOINT,
                    key.sign(new Checkpoint(KEY.name(), appender.size(), appender.root()).text())
                            .getBytes(StandardCharsets.UTF_8));
            return this;
        }
    }

    @TempDir
    Path tmp;

    private HttpServer server;
    private volatile ServedLog served;
    /** When not 0, the status every tile is answered with. */
    private volatile int tileStatus;

    @BeforeEach
    void serve() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/tlog/", exchange -> {
            PublishedLog log = new PublishedLog(served.records::get, 1);
            String path = exchange.getRequestURI().getPath().substring("/tlog/".length());
            if (tileStatus != 0 && !path.equals("checkpoint")) {
                exchange.sendResponseHeaders(tileStatus, -1);
                exchange.close();
                return;
            }
            Optional<byte[]> body = path.equals("checkpoint")
                    ? log.checkpoint().map(c -> c.getBytes(StandardCharsets.UTF_8))
                    : Optional.ofNullable(TilePath.parse(path)).flatMap(log::tile);
            exchange.sendResponseHeaders(
                    body.isPresent() ? 200 : 404, body.map(b -> (long) b.length).orElse(-1L));
            if (body.isPresent()) {
                exchange.getResponseBody().write(body.get());
            }
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String[] monitor() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = ProoflineCli.run(
                List.of(
                        "tlog",
                        "monitor",
                        "http://127.0.0.1:" + server.getAddress().getPort(),
                        "--log-key",
                        KEY.verifierKey(),
                        "--state",
                        tmp.resolve("state").toString(),
                        "--once"),
                new PrintStream(out, true),
                new PrintStream(err, true));
        return new String[] {Integer.toString(exit), out.toString(), err.toString()};
    }

    /**
     * A tile not answered now (a 503 while the deployment rebalances, a timeout) is no evidence: the
     * check could not be made, exit 2. A tile the checkpoint commits to and the log says it does not
     * have (404, asked three times) cannot prove consistency: a fork, exit 1.
     */
    @Test
    void aTileNotAnsweredNowIsNoForkAndOneNotServedIs() {
        ServedLog log = new ServedLog().grow(300, 1, KEY);
        served = log;
        assertEquals("0", monitor()[0]);
        served = log.grow(70_000, 1, KEY);
        tileStatus = 503;
        String[] busy = monitor();
        assertEquals("2", busy[0], busy[2]);
        assertFalse(busy[2].contains("FORK"), busy[2]);
        assertTrue(busy[2].contains("answered 503"), busy[2]);
        tileStatus = 404;
        String[] withheld = monitor();
        assertEquals("1", withheld[0], withheld[2]);
        assertTrue(withheld[2].contains("FORK") && withheld[2].contains("missing"), withheld[2]);
        tileStatus = 0;
        String[] answered = monitor();
        assertEquals("0", answered[0], answered[2]);
        assertTrue(answered[1].contains("consistent with 300"), answered[1]);
    }

    @Test
    void growthIsFollowedAndEveryKindOfForkIsRefused() {
        ServedLog log = new ServedLog().grow(300, 1, KEY);
        served = log;
        String[] first = monitor();
        assertEquals("0", first[0], first[2]);
        assertTrue(first[1].startsWith("checkpoint 300 ") && first[1].contains("first seen"), first[1]);
        served = log.grow(70_000, 1, KEY); // across full tiles at levels 0 and 1
        String[] grown = monitor();
        assertEquals("0", grown[0], grown[2]);
        assertTrue(grown[1].contains("checkpoint 70300 ") && grown[1].contains("consistent with 300"), grown[1]);

        served = new ServedLog().grow(80_000, 2, KEY); // another history, signed with the same key
        String[] fork = monitor();
        assertEquals("1", fork[0]);
        assertTrue(fork[2].contains("FORK") && fork[2].contains("not consistent"), fork[2]);

        served = new ServedLog().grow(70_300, 3, KEY);
        String[] rewritten = monitor();
        assertEquals("1", rewritten[0]);
        assertTrue(rewritten[2].contains("two different roots for size 70300"), rewritten[2]);

        served = new ServedLog().grow(100, 1, KEY);
        String[] shrunk = monitor();
        assertEquals("1", shrunk[0]);
        assertTrue(shrunk[2].contains("shrank"), shrunk[2]);

        served = new ServedLog().grow(70_400, 1, new NoteKey(KEY.name(), MerkleHashes.sha256(new byte[] {8})));
        String[] forged = monitor();
        assertEquals("1", forged[0]);
        assertTrue(forged[2].contains("does not verify"), forged[2]);
    }
}
