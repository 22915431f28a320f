package dev.proofline.launcher;

import dev.proofline.attestor.Conformance;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** {@code proofline up} in its own JVM, from the packaged jar, so a test can kill it for real. */
final class ChildProofline implements AutoCloseable {
    private final Process process;
    private final String readyLine;
    private final List<String> printedBeforeReady;

    private ChildProofline(Process process, String readyLine, List<String> printedBeforeReady) {
        this.process = process;
        this.readyLine = readyLine;
        this.printedBeforeReady = List.copyOf(printedBeforeReady);
    }

    static ChildProofline up(Path log, String... flags) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-jar",
                Conformance.repoRoot().resolve("launcher/target/proofline.jar").toString(),
                "up"));
        command.addAll(List.of(flags));
        Process process =
                new ProcessBuilder(command).redirectError(log.toFile()).start();
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        // A new deployment says where its operator token is kept first, then the ready line.
        List<String> before = new java.util.concurrent.CopyOnWriteArrayList<>();
        String line = CompletableFuture.supplyAsync(() -> {
                    try {
                        String read = out.readLine();
                        while (read != null && !read.startsWith("Proofline ready:")) {
                            before.add(read);
                            read = out.readLine();
                        }
                        return read;
                    } catch (IOException e) {
                        return null;
                    }
                })
                .get(120, TimeUnit.SECONDS);
        if (line == null || !line.startsWith("Proofline ready:")) {
            process.destroyForcibly();
            throw new IllegalStateException("proofline up did not become ready; see " + log);
        }
        return new ChildProofline(process, line, before);
    }

    /**
     * Flags for an instance that may be SIGKILLed while others go on: its open transaction holds
     * read_committed readers of its partitions back until the broker aborts it, after this timeout
     * rather than the node's 45 s. Not for a test that stops its only broker for seconds: a transaction
     * that outlives the timeout while the broker is away fences its thread, which then starts over.
     */
    static final String[] KILLABLE = {"--streams.producer.transaction.timeout.ms", "15000"};

    /**
     * An instance sharing the work with others of the same {@code applicationId}: its own data
     * directory and log under {@code dir}, the shared key ring {@code dir/keys}, a free HTTP port, and
     * a short session timeout so a killed member's partitions move quickly. Extra flags follow.
     */
    static ChildProofline sharingWork(Path dir, String name, String bootstrap, String applicationId, String... more)
            throws Exception {
        return sharingWork(dir, name, bootstrap, applicationId, EmbeddedKafkaBroker.freePort("127.0.0.1"), more);
    }

    /** As above, on an HTTP port the caller chose (with others, when they must all differ). */
    static ChildProofline sharingWork(
            Path dir, String name, String bootstrap, String applicationId, int httpPort, String... more)
            throws Exception {
        List<String> flags = new ArrayList<>(List.of(
                "--bootstrap-servers",
                bootstrap,
                "--data-dir",
                dir.resolve(name).toString(),
                "--keys-dir",
                dir.resolve("keys").toString(),
                "--http-port",
                Integer.toString(httpPort),
                "--application-id",
                applicationId,
                "--streams.session.timeout.ms",
                "10000"));
        flags.addAll(List.of(more));
        return up(dir.resolve(name + ".log"), flags.toArray(String[]::new));
    }

    String readyLine() {
        return readyLine;
    }

    /** What {@code up} printed before it was ready: where a new deployment keeps its operator token. */
    List<String> printedBeforeReady() {
        return printedBeforeReady;
    }

    /** The HTTP base URL from the ready line ({@code ... http=http://host:port}). */
    String httpUrl() {
        return readyLine.substring(readyLine.indexOf("http=") + 5).trim();
    }

    /** SIGKILL: no shutdown hook, no flush, no commit. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM: the clean shutdown an operator's Ctrl-C gives. */
    int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("proofline up did not stop on SIGTERM");
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
