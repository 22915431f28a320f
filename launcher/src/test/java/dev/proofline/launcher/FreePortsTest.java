package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Ports for a broker's listener and controller are chosen together, so they never repeat: picked
 * one after another they once did, and the broker refused to start (CI, AccessIT).
 */
class FreePortsTest {

    @Test
    void portsChosenTogetherAreDifferentAndFree() throws Exception {
        for (int round = 0; round < 20; round++) {
            int[] ports = EmbeddedKafkaBroker.freePorts("127.0.0.1", 50);
            assertEquals(50, Arrays.stream(ports).distinct().count(), "50 different ports");
            for (int port : ports) {
                assertTrue(port > 0);
            }
            // Released once chosen: each can be bound again.
            try (ServerSocket again = new ServerSocket(ports[0], 1, InetAddress.getByName("127.0.0.1"))) {
                assertEquals(ports[0], again.getLocalPort());
            }
        }
    }
}
