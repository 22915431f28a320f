package dev.proofline.launcher;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Debian's Chromium for the browser test: installed with apt-get when it is not there yet (PLATFORM-NOTES). */
final class Chromium {
    static final Path EXECUTABLE = Path.of("/usr/bin/chromium");

    private Chromium() {}

    static void ensureInstalled() throws Exception {
        if (Files.isExecutable(EXECUTABLE)) {
            return;
        }
        if (!apt("install", "-y", "-q", "chromium")) {
            apt("update", "-q");
            if (!apt("install", "-y", "-q", "chromium")) {
                throw new IllegalStateException("the dashboard test needs Chromium at " + EXECUTABLE
                        + " and apt-get could not install it (run: apt-get install chromium)");
            }
        }
    }

    private static boolean apt(String... args) throws Exception {
        String[] command = new String[args.length + 1];
        command[0] = "apt-get";
        System.arraycopy(args, 0, command, 1, args.length);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean ok = p.waitFor(600, TimeUnit.SECONDS) && p.exitValue() == 0;
        if (!ok) {
            System.err.println("apt-get " + String.join(" ", args) + " failed:\n" + out);
        }
        return ok;
    }
}
