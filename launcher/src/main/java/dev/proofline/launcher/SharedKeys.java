package dev.proofline.launcher;

import dev.proofline.access.CallerRegistry;
import dev.proofline.access.DeploymentFingerprints;
import dev.proofline.attestor.DeploymentSecret;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.PublishedKey;
import dev.proofline.attestor.Sha256;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Instances that share the work share the keys: the group's signing key and secret are published
 * (as fingerprints) on the callers topic, and an instance holding others refuses to start, rather
 * than sign with another key or issue other receipt ids. A rotation moves the group forward: an
 * instance whose newest key is newer than the group's, and which still holds the group's, publishes
 * its own.
 */
final class SharedKeys {
    private static final Logger LOG = LoggerFactory.getLogger(SharedKeys.class);

    private SharedKeys() {}

    static void check(CallerRegistry callers, KeyRing keys, DeploymentSecret secret) {
        DeploymentFingerprints mine = fingerprints(keys, secret);
        Optional<DeploymentFingerprints> group = callers.fingerprints();
        if (group.isEmpty()) {
            callers.publish(mine);
            return;
        }
        DeploymentFingerprints published = group.get();
        if (!callers.fingerprintsAuthentic() || !published.secret().equals(mine.secret())) {
            throw new IllegalStateException("this instance's deployment secret (fingerprint " + mine.secret()
                    + ") is not its group's (" + published.secret() + "): receipt ids would differ; point"
                    + " keys.dir at the keys the other instances use");
        }
        if (published.signingKey().equals(mine.signingKey())) {
            return;
        }
        boolean holdsGroupKey = keys.publishedKeys().stream()
                .anyMatch(k -> k.keyVersion().equals(published.signingKeyVersion())
                        && fingerprint(k).equals(published.signingKey()));
        if (!holdsGroupKey) {
            throw new IllegalStateException("this instance signs with key " + mine.signingKeyVersion() + " ("
                    + mine.signingKey() + "), its group with " + published.signingKeyVersion() + " ("
                    + published.signingKey() + "), which this instance does not hold: point keys.dir at the"
                    + " keys the other instances use");
        }
        LOG.info(
                "signing key rotated from {} to {}: this instance moves its group forward",
                published.signingKeyVersion(),
                mine.signingKeyVersion());
        callers.publish(mine);
    }

    static DeploymentFingerprints fingerprints(KeyRing keys, DeploymentSecret secret) {
        PublishedKey signing = keys.signingKey().published();
        return new DeploymentFingerprints(signing.keyVersion(), fingerprint(signing), secret.fingerprint());
    }

    private static String fingerprint(PublishedKey key) {
        return Sha256.hex(key.rawKey()).substring(0, 16);
    }
}
