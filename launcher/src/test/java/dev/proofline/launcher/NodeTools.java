package dev.proofline.launcher;

import dev.proofline.attestor.Conformance;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

/**
 * Node.js and npm packages for third-party checks, installed once per build under target/, each set
 * of packages in a directory of its own: an install never rewrites node_modules under a script that
 * another test JVM is running from it.
 */
final class NodeTools {
    private NodeTools() {}

    static boolean available() {
        return runs("node", "--version") && runs("npm", "--version");
    }

    /** Installs the packages into a directory under launcher/target/node-tools (once) and returns it. */
    static Path install(String... packages) throws Exception {
        String set = String.join("+", packages).replaceAll("[^A-Za-z0-9.+-]", "_");
        Path dir = Files.createDirectories(
                Conformance.repoRoot().resolve("launcher/target/node-tools").resolve(set));
        return ForkLock.holding("node-tools", () -> installInto(dir, packages));
    }

    private static Path installInto(Path dir, String... packages) throws Exception {
        boolean present = true;
        for (String pkg : packages) {
            String name = pkg.substring(0, pkg.lastIndexOf('@'));
            present &= Files.isDirectory(dir.resolve("node_modules").resolve(name));
        }
        if (!present) {
            // --prefer-offline: what npm's cache holds is taken without asking the registry again. One
            // registry request that hung for 167 s once made a CI run miss its 20 minutes.
            String[] command = new String[packages.length + 8];
            System.arraycopy(
                    new String[] {
                        "npm",
                        "install",
                        "--prefer-offline",
                        "--no-audit",
                        "--no-fund",
                        "--loglevel=error",
                        "--prefix",
                        dir.toString()
                    },
                    0,
                    command,
                    0,
                    8);
            System.arraycopy(packages, 0, command, 8, packages.length);
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("npm install failed: " + out);
            }
        }
        return dir;
    }

    /**
     * Copies a script from the test resources next to the installed packages, runs it with node and
     * returns what it printed; a non-zero exit fails the test with what it printed on stderr.
     */
    static String run(Path tools, String resource, String... args) throws Exception {
        Path script = tools.resolve(resource);
        try (InputStream in = NodeTools.class.getResourceAsStream("/" + resource)) {
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
        }
        Path errors = tools.resolve(resource + ".err");
        String[] command = new String[args.length + 2];
        command[0] = "node";
        command[1] = script.toString();
        System.arraycopy(args, 0, command, 2, args.length);
        Process p = new ProcessBuilder(command)
                .directory(tools.toFile())
                .redirectError(errors.toFile())
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(resource + " did not finish");
        }
        if (p.exitValue() != 0) {
            throw new AssertionError(resource + " failed: " + Files.readString(errors));
        }
        return out;
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
