package dev.proofline.launcher;

import dev.proofline.attestor.Conformance;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Node.js and npm packages for third-party checks, installed once per build under target/. */
final class NodeTools {
    private NodeTools() {
    }

    static boolean available() {
        return runs("node", "--version") && runs("npm", "--version");
    }

    /** Installs the packages into launcher/target/node-tools (once) and returns that directory. */
    static Path install(String... packages) throws Exception {
        Path dir = Conformance.repoRoot().resolve("launcher/target/node-tools");
        Files.createDirectories(dir);
        boolean present = true;
        for (String pkg : packages) {
            String name = pkg.substring(0, pkg.lastIndexOf('@'));
            present &= Files.isDirectory(dir.resolve("node_modules").resolve(name));
        }
        if (!present) {
            String[] command = new String[packages.length + 7];
            System.arraycopy(new String[] {"npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", dir.toString()}, 0, command, 0, 7);
            System.arraycopy(packages, 0, command, 7, packages.length);
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("npm install failed: " + out);
            }
        }
        return dir;
    }

    private static boolean runs(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
