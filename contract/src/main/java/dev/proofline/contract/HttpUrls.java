package dev.proofline.contract;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;

/**
 * An address a user gives Proofline to call (a registry, a deployment): an http:// or https:// URL
 * with a host. Checked where it is given, so a typo is said once, not as a failure of every call.
 */
public final class HttpUrls {
    private HttpUrls() {}

    /** The URL, or empty when {@code text} is not an http:// or https:// URL with a host. */
    public static Optional<URI> parse(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
        boolean http = "http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme());
        return http && uri.getHost() != null ? Optional.of(uri) : Optional.empty();
    }
}
