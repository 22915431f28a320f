package dev.proofline.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A client over Kafka pointed where no broker answers (a typo, a broker not started) used to wait
 * for ever for its reply topics' partitions, in silence: {@code proofline publish} and
 * {@code receipts --follow} hung. It now says so once its connect timeout has passed.
 */
class NoBrokerTest {

    private static String nobodyListening() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "127.0.0.1:" + socket.getLocalPort(); // closed again: nothing listens there
        }
    }

    @Test
    void aClientPointedAtNoBrokerIsUnreachableOnceItsConnectTimeoutHasPassed() throws Exception {
        String nowhere = nobodyListening();
        long start = System.nanoTime();
        ProoflineException e = assertThrows(
                ProoflineException.class,
                () -> ProoflineClient.builder()
                        .baseUrl("http://127.0.0.1:1")
                        .kafka(Map.of("bootstrap.servers", nowhere))
                        .connectTimeout(Duration.ofSeconds(2))
                        .build());
        assertEquals("unreachable", e.code());
        assertTrue(e.retryable());
        assertTrue(e.getMessage().contains("is Kafka reachable"), e.getMessage());
        // A liveness bound, not a speed figure: it gave up, rather than waiting on.
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(60).toNanos());
    }
}
