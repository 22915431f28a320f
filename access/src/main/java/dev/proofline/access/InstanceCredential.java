package dev.proofline.access;

import dev.proofline.attestor.DeploymentSecret;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * How instances of one deployment recognise each other on the internal routes: a header holding a
 * value derived from the shared secret. Only instances that share the secret (as they must: they
 * share the keys) can send it; it is never logged and never leaves the deployment.
 */
public final class InstanceCredential {
    public static final String HEADER = "Proofline-Instance";

    private final String value;

    public InstanceCredential(DeploymentSecret secret) {
        this.value = HexFormat.of().formatHex(secret.keyFor("instance"));
    }

    public String value() {
        return value;
    }

    public boolean accepts(String presented) {
        return presented != null
                && DeploymentSecret.sameMac(
                        presented.getBytes(StandardCharsets.US_ASCII), value.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public String toString() {
        return "InstanceCredential[hidden]";
    }
}
