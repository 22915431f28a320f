package dev.proofline.launcher;

import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.StrictJson;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * The reference x402 stack from npm, for tests (launcher/src/test/x402, pinned in its package.json):
 * a local anvil chain with an EIP-3009 "USDC" token, the reference facilitator behind node:http,
 * and the reference clients. Copied to target/x402 and installed there with {@code npm ci}; the
 * chain and the facilitator run until {@link #close()}.
 */
final class X402Stack implements AutoCloseable {
    private final Path dir;
    private final List<Process> running = new ArrayList<>();
    final Path chainFile;
    final JsonNode chain;
    final String facilitatorUrl;

    /** Copies the stack to target/x402 and installs it there with {@code npm ci} (once). */
    private static Path install() throws Exception {
        Path source = Conformance.repoRoot().resolve("launcher/src/test/x402");
        Path dir = Conformance.repoRoot().resolve("launcher/target/x402");
        Files.createDirectories(dir);
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path relative = source.relativize(file);
                if (relative.startsWith("node_modules") || relative.startsWith(".cache")) {
                    continue;
                }
                Files.createDirectories(dir.resolve(relative).getParent());
                Files.copy(file, dir.resolve(relative), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        if (!Files.isDirectory(dir.resolve("node_modules/@x402/fetch"))) {
            Process install = new ProcessBuilder(
                            "npm", "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error")
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .start();
            String out = new String(install.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!install.waitFor(600, TimeUnit.SECONDS) || install.exitValue() != 0) {
                throw new IllegalStateException("npm ci failed: " + out);
            }
        }
        return dir;
    }

    private X402Stack(Path dir, Path chainFile, JsonNode chain, String facilitatorUrl, List<Process> processes) {
        this.dir = dir;
        this.chainFile = chainFile;
        this.chain = chain;
        this.facilitatorUrl = facilitatorUrl;
        this.running.addAll(processes);
    }

    static X402Stack start() throws Exception {
        Path dir = ForkLock.holding("x402", X402Stack::install);
        List<Process> processes = new ArrayList<>();
        try {
            int port = EmbeddedKafkaBroker.freePort("127.0.0.1");
            Path chainFile = dir.resolve("chain.json");
            Process chainProcess = node(
                    dir,
                    "chain.log",
                    "chain.mjs",
                    "--port",
                    Integer.toString(port),
                    "--out",
                    chainFile.toString(),
                    "--exit-on-stdin-close");
            processes.add(chainProcess);
            JsonNode chain = StrictJson.parse(firstLine(chainProcess, "chain.mjs"));
            Process facilitator = node(
                    dir,
                    "facilitator.log",
                    "facilitator.mjs",
                    "--chain",
                    chainFile.toString(),
                    "--port",
                    "0",
                    "--exit-on-stdin-close");
            processes.add(facilitator);
            String url = StrictJson.parse(firstLine(facilitator, "facilitator.mjs"))
                    .get("url")
                    .asString();
            return new X402Stack(dir, chainFile, chain, url, processes);
        } catch (Exception | Error e) {
            processes.forEach(Process::destroyForcibly);
            throw e;
        }
    }

    /** Runs one of the harness's client scripts to its end; its one JSON line. */
    JsonNode run(String script, String... args) throws Exception {
        List<String> command =
                new ArrayList<>(List.of("node", dir.resolve(script).toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectError(dir.resolve(script + ".err").toFile())
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(script + " did not finish");
        }
        if (out.isEmpty()) {
            throw new AssertionError(script + " printed nothing: " + Files.readString(dir.resolve(script + ".err")));
        }
        String[] lines = out.split("\n");
        return StrictJson.parse(lines[lines.length - 1]);
    }

    /** The token balance of an address, in atomic units. */
    long balance(String address) throws Exception {
        JsonNode balances =
                run("balance.mjs", "--chain", chainFile.toString(), address).get("balances");
        for (var e : balances.properties()) {
            if (e.getKey().equalsIgnoreCase(address)) {
                return Long.parseLong(e.getValue().asString());
            }
        }
        throw new AssertionError("no balance for " + address + " in " + balances);
    }

    private static Process node(Path dir, String log, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("node"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectError(dir.resolve(log).toFile())
                .start();
    }

    private static String firstLine(Process process, String what) throws Exception {
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = CompletableFuture.supplyAsync(() -> {
                    try {
                        return out.readLine();
                    } catch (java.io.IOException e) {
                        return null;
                    }
                })
                .get(180, TimeUnit.SECONDS);
        if (line == null) {
            throw new IllegalStateException(what + " did not start");
        }
        return line;
    }

    @Override
    public void close() {
        for (Process p : running) {
            try {
                p.getOutputStream().close(); // --exit-on-stdin-close
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroy();
                }
            } catch (Exception e) {
                p.destroyForcibly();
            }
        }
    }
}
