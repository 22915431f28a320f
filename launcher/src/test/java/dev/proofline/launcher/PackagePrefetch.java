package dev.proofline.launcher;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Starts installing the Debian packages of the browser and Go tests as the integration test run
 * opens (failsafe sets {@code proofline.prefetch.packages}), so that on a fresh machine their
 * minute of apt-get overlaps the first tests instead of adding to the run; the tests that need them
 * wait for it ({@link DebianPackages#ensure}). Unit test runs leave it alone.
 */
public final class PackagePrefetch implements LauncherSessionListener {
    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (Boolean.getBoolean("proofline.prefetch.packages")) {
            DebianPackages.prefetch(Chromium.EXECUTABLE, Chromium.PACKAGE);
            DebianPackages.prefetch(GoTlogVerifier.GO, GoTlogVerifier.PACKAGES);
        }
    }
}
