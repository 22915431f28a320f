package dev.proofline.launcher;

import java.nio.file.Path;

/** Debian's Chromium for the browser test: installed with apt-get when it is not there yet (PLATFORM-NOTES). */
final class Chromium {
    static final Path EXECUTABLE = Path.of("/usr/bin/chromium");
    static final String PACKAGE = "chromium";

    private Chromium() {}

    static void ensureInstalled() throws Exception {
        if (!DebianPackages.ensure(EXECUTABLE, PACKAGE)) {
            throw new IllegalStateException("the dashboard test needs Chromium at " + EXECUTABLE
                    + " and apt-get could not install it (run: apt-get install chromium)");
        }
    }
}
