package dev.proofline.access;

import dev.proofline.attestor.DeploymentSecret;
import dev.proofline.attestor.Sha256;
import dev.proofline.contract.KeyedHmac;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The submitter header pair on a request record: the front door writes who submitted it and an
 * HMAC of that name and the request's SHA-256 under the deployment's key for this purpose; the
 * pipeline believes the name only when the HMAC verifies. A header copied onto other bytes, or
 * written by a producer without the secret, does not verify: that record is Kafka's own, and
 * counted as forged.
 */
public final class SubmitterStamp {
    private static final byte[] NO_BODY = new byte[0];

    // Every REST request is stamped and every request record checked.
    private final KeyedHmac hmac;
    private final AtomicLong forged = new AtomicLong();

    public SubmitterStamp(DeploymentSecret secret) {
        this.hmac = new KeyedHmac(secret.keyFor("submitter"));
    }

    public void stamp(Headers headers, Submitter submitter, byte[] body) {
        headers.add(dev.proofline.contract.Headers.SUBMITTER, submitter.id().getBytes(StandardCharsets.UTF_8));
        headers.add(dev.proofline.contract.Headers.SUBMITTER_MAC, mac(submitter.id(), body));
    }

    /** Who submitted the record: the stamped name when its HMAC verifies, else {@link Submitter#KAFKA}. */
    public Submitter submitter(Headers headers, byte[] body) {
        Header name = headers.lastHeader(dev.proofline.contract.Headers.SUBMITTER);
        Header mac = headers.lastHeader(dev.proofline.contract.Headers.SUBMITTER_MAC);
        if (name == null && mac == null) {
            return Submitter.KAFKA; // a producer on Kafka: Kafka authenticated it
        }
        if (name != null && name.value() != null && mac != null) {
            String id = new String(name.value(), StandardCharsets.UTF_8);
            if (DeploymentSecret.sameMac(mac.value(), mac(id, body))) {
                return new Submitter(id);
            }
        }
        forged.incrementAndGet();
        return Submitter.KAFKA;
    }

    /** Records whose submitter header was present but did not verify, since start. */
    public long forgedCount() {
        return forged.get();
    }

    private byte[] mac(String submitter, byte[] body) {
        byte[] bytes = body == null ? NO_BODY : body;
        byte[] digest = Sha256.digest(bytes, 0, bytes.length);
        byte[] name = submitter.getBytes(StandardCharsets.UTF_8);
        byte[] message = new byte[name.length + 1 + digest.length];
        System.arraycopy(name, 0, message, 0, name.length);
        message[name.length] = '\n';
        System.arraycopy(digest, 0, message, name.length + 1, digest.length);
        return hmac.of(message);
    }
}
