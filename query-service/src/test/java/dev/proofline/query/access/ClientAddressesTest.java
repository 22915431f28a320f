package dev.proofline.query.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClientAddressesTest {
    private final ClientAddresses none = new ClientAddresses(List.of());
    private final ClientAddresses proxies = new ClientAddresses(List.of("10.0.0.0/8", "192.0.2.1", "2001:db8::/32"));

    @Test
    void withoutTrustedProxiesTheSocketIsTheCallerWhateverTheHeaderSays() {
        assertEquals("203.0.113.9", none.clientOf("203.0.113.9", List.of("1.2.3.4")));
    }

    @Test
    void theRightmostUntrustedAddressIsTheClientNotTheForgeableLeftmost() {
        // The client sent "X-Forwarded-For: 6.6.6.6"; our proxies appended the real address.
        assertEquals("198.51.100.7", proxies.clientOf("10.1.2.3", List.of("6.6.6.6, 198.51.100.7, 10.9.9.9")));
        assertEquals("198.51.100.7", proxies.clientOf("192.0.2.1", List.of("6.6.6.6", "198.51.100.7")));
        assertEquals("2001:db9:0:0:0:0:0:1", proxies.clientOf("2001:db8::5", List.of("2001:db9::1")));
    }

    @Test
    void anUntrustedSocketIsNeverSkippedAndGarbageStopsTheWalk() {
        assertEquals("198.51.100.7", proxies.clientOf("198.51.100.7", List.of("10.0.0.1")));
        assertEquals("10.1.2.3", proxies.clientOf("10.1.2.3", List.of("unknown")));
        assertEquals("10.1.2.3", proxies.clientOf("10.1.2.3", List.of()));
        assertEquals("10.0.0.2", proxies.clientOf("10.1.2.3", List.of("10.0.0.2")), "only proxies: the farthest");
    }

    @Test
    void mappedAddressesAreTheirIpv4AndBadRangesAreRefused() {
        assertEquals("198.51.100.7", proxies.clientOf("::ffff:10.0.0.1", List.of("198.51.100.7")));
        assertThrows(IllegalArgumentException.class, () -> new ClientAddresses(List.of("proxy.example.com")));
        assertThrows(IllegalArgumentException.class, () -> new ClientAddresses(List.of("10.0.0.0/33")));
    }
}
