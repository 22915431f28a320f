package dev.proofline.access;

import dev.proofline.attestor.DeploymentSecret;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Records of the callers topic (and the allowance topic, under its own purpose key) carry an HMAC of
 * key and value under the deployment's key for that purpose, so whoever can write to Kafka but lacks
 * the secret cannot mint or revoke a key, or reset a count.
 */
final class SignedRecords {
    private final byte[] key;

    SignedRecords(DeploymentSecret secret) {
        this(secret, "callers");
    }

    /** Records of another topic, under a key of their own purpose. */
    SignedRecords(DeploymentSecret secret, String purpose) {
        this.key = secret.keyFor(purpose);
    }

    void sign(Headers headers, String recordKey, String value) {
        headers.add(dev.proofline.contract.Headers.RECORD_MAC, mac(recordKey, value));
    }

    boolean verifies(Headers headers, String recordKey, String value) {
        Header mac = headers.lastHeader(dev.proofline.contract.Headers.RECORD_MAC);
        return mac != null
                && recordKey != null
                && value != null
                && DeploymentSecret.sameMac(mac.value(), mac(recordKey, value));
    }

    private byte[] mac(String recordKey, String value) {
        return DeploymentSecret.hmac(key, (recordKey + "\n" + value).getBytes(StandardCharsets.UTF_8));
    }
}
