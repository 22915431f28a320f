package dev.proofline.launcher;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** Debian packages a test needs (Chromium, Go), installed with apt-get when their file is not there yet. */
final class DebianPackages {
    /** One apt-get at a time: a second would find dpkg's lock taken. */
    private static final Executor APT = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "apt-get");
        thread.setDaemon(true);
        return thread;
    });
    /** Installs under way or done, by the file they provide. */
    private static final Map<Path, CompletableFuture<Boolean>> INSTALLS = new ConcurrentHashMap<>();

    private DebianPackages() {}

    /** Whether {@code file} exists, installing the packages first if it does not (or waiting for a prefetch). */
    static boolean ensure(Path file, String... packages) throws Exception {
        // An install under way may have unpacked the file before the rest of its package: wait for
        // it, in this JVM (its future) or in the other test JVM (the lock its apt-get runs under).
        CompletableFuture<Boolean> underWay = INSTALLS.get(file);
        if (underWay == null && ForkLock.holding("apt-get", () -> Files.exists(file))) {
            return true;
        }
        return install(file, packages).get(20, TimeUnit.MINUTES) || Files.exists(file);
    }

    /**
     * Starts installing in the background at low priority, so a test run's first tests go on
     * meanwhile; a later {@link #ensure} of the same file waits for it instead of installing again.
     */
    static void prefetch(Path file, String... packages) {
        if (!Files.exists(file)) {
            install(file, packages);
        }
    }

    private static CompletableFuture<Boolean> install(Path file, String... packages) {
        return INSTALLS.computeIfAbsent(file, f -> CompletableFuture.supplyAsync(() -> installNow(f, packages), APT));
    }

    private static boolean installNow(Path file, String... packages) {
        try {
            // The other test JVM may be installing the same packages: its dpkg lock would make ours fail.
            return ForkLock.holding("apt-get", () -> installUnlessPresent(file, packages));
        } catch (Exception e) {
            System.err.println("apt-get could not run: " + e);
            return false;
        }
    }

    private static boolean installUnlessPresent(Path file, String... packages) {
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

    private static boolean apt(List<String> args) {
        // nice: installing beside running tests must not slow a pipeline a test is timing out.
        List<String> command = new ArrayList<>(List.of("nice", "-n", "19", "apt-get", "-o", "DPkg::Lock::Timeout=600"));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
        try {
            Process p = builder.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            boolean ok = p.waitFor(600, TimeUnit.SECONDS) && p.exitValue() == 0;
            if (!ok) {
                System.err.println("apt-get " + String.join(" ", args) + " failed:\n" + out);
            }
            return ok;
        } catch (Exception e) {
            System.err.println("apt-get " + String.join(" ", args) + " could not run: " + e);
            return false;
        }
    }
}
