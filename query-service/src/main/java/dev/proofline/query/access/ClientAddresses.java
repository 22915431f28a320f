package dev.proofline.query.access;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Who an anonymous caller is: its client address. Behind proxies the socket address is the
 * proxy's, so {@code X-Forwarded-For} is read, but only as far as it can be believed: from the
 * right, skipping addresses of trusted proxies ({@code http.trusted.proxies}: addresses or CIDR
 * ranges); the first address that is not a trusted proxy is the client. The leftmost entry is
 * whatever the client chose to send, so it is never taken on trust.
 */
public final class ClientAddresses {
    private final List<Range> trusted;

    public ClientAddresses(List<String> trustedProxies) {
        List<Range> ranges = new ArrayList<>();
        for (String entry : trustedProxies) {
            if (!entry.isBlank()) {
                ranges.add(Range.parse(entry.trim()));
            }
        }
        this.trusted = List.copyOf(ranges);
    }

    /**
     * @param socketAddress  the address the connection came from
     * @param forwardedFor   every {@code X-Forwarded-For} header value, in order (may be empty)
     */
    public String clientOf(String socketAddress, List<String> forwardedFor) {
        if (!isTrusted(socketAddress)) {
            return normal(socketAddress);
        }
        List<String> hops = new ArrayList<>();
        for (String header : forwardedFor) {
            for (String hop : header.split(",")) {
                if (!hop.isBlank()) {
                    hops.add(hop.trim());
                }
            }
        }
        String client = socketAddress;
        for (int i = hops.size() - 1; i >= 0; i--) {
            String hop = hops.get(i);
            if (!isLiteral(hop)) {
                return client; // not an address ("unknown", garbage): stop at the last believable one
            }
            client = hop;
            if (!isTrusted(hop)) {
                break;
            }
        }
        return normal(client);
    }

    /**
     * The address that stands for one client when counting what clients hold: itself for IPv4, its
     * /64 for IPv6 (one host gets a whole /64 and could otherwise take a fresh address each time).
     */
    public static InetAddress client(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length != 16) {
            return address;
        }
        java.util.Arrays.fill(bytes, 8, 16, (byte) 0);
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException impossible) { // 16 bytes are always an address
            return address;
        }
    }

    public boolean isTrusted(String address) {
        byte[] bytes = bytes(address);
        return bytes != null && trusted.stream().anyMatch(r -> r.contains(bytes));
    }

    private static String normal(String address) {
        byte[] bytes = bytes(address);
        try {
            return bytes == null ? address : InetAddress.getByAddress(bytes).getHostAddress();
        } catch (UnknownHostException e) {
            return address;
        }
    }

    private static boolean isLiteral(String text) {
        return bytes(text) != null;
    }

    /** The bytes of an IPv4 or IPv6 literal (never a DNS lookup), or null. */
    static byte[] bytes(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        String literal = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        boolean v4 = literal.matches("\\d{1,3}(\\.\\d{1,3}){3}");
        boolean v6 = literal.contains(":") && literal.matches("[0-9a-fA-F:.]+");
        if (!v4 && !v6) {
            return null;
        }
        try {
            byte[] bytes = InetAddress.getByName(literal).getAddress(); // a literal: parsed, not resolved
            if (bytes.length == 16 && isMappedV4(bytes)) {
                return java.util.Arrays.copyOfRange(bytes, 12, 16);
            }
            return bytes;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static boolean isMappedV4(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
    }

    /** An address or a CIDR range. */
    private record Range(byte[] network, int prefix) {
        static Range parse(String text) {
            int slash = text.indexOf('/');
            String address = slash < 0 ? text : text.substring(0, slash);
            byte[] bytes = bytes(address);
            if (bytes == null) {
                throw new IllegalArgumentException(
                        "http.trusted.proxies takes IP addresses or CIDR ranges, not '" + text + "'");
            }
            int prefix = slash < 0 ? bytes.length * 8 : Integer.parseInt(text.substring(slash + 1));
            if (prefix < 0 || prefix > bytes.length * 8) {
                throw new IllegalArgumentException("the prefix length in '" + text + "' is out of range");
            }
            return new Range(bytes, prefix);
        }

        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (address[full] & mask) == (network[full] & mask);
        }
    }
}
