package dev.proofline.launcher;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Debian packages a test needs (Chromium, Go), installed with apt-get when their file is not there yet. */
final class DebianPackages {
    private DebianPackages() {}

    /** Whether {@code file} exists, installing the packages first if it does not. */
    static boolean ensure(Path file, String... packages) throws Exception {
        if (Files.exists(file)) {
            return true;
        }
        List<String> install = new ArrayList<>(List.of("install", "-y", "-q"));
        install.addAll(List.of(packages));
        if (!apt(install) && apt(List.of("update", "-q"))) {
            apt(install);
        }
        return Files.exists(file);
    }

    private static boolean apt(List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of("apt-get"));
        command.addAll(args);
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
