package dev.proofline.launcher;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * An independent verifier of the transparency log: {@code tlogcheck.go} (test resources), built on
 * Go's own {@code golang.org/x/mod/sumdb/note} and {@code sumdb/tlog} from Debian's packages, offline
 * in GOPATH mode (PLATFORM-NOTES).
 */
final class GoTlogVerifier {
    static final Path GO = Path.of("/usr/bin/go");
    /** Go, and the module whose sumdb code checks the log. */
    static final String[] PACKAGES = {"golang-go", "golang-golang-x-mod-dev"};

    private static final Path GOPATH = Path.of("/usr/share/gocode");

    /** What one run printed, and its exit code. */
    record Run(int exit, String output) {}

    private final Path binary;

    private GoTlogVerifier(Path binary) {
        this.binary = binary;
    }

    /** Builds the verifier in {@code dir}; empty when Go or its sumdb packages cannot be installed. */
    static Optional<GoTlogVerifier> build(Path dir) throws Exception {
        if (!DebianPackages.ensure(GO, PACKAGES)
                || !DebianPackages.ensure(
                        GOPATH.resolve("src/golang.org/x/mod/sumdb/tlog"), "golang-golang-x-mod-dev")) {
            return Optional.empty();
        }
        Files.createDirectories(dir);
        Path source = dir.resolve("tlogcheck.go");
        try (InputStream in = GoTlogVerifier.class.getResourceAsStream("/tlog/tlogcheck.go")) {
            Files.copy(in, source);
        }
        Path binary = dir.resolve("tlogcheck");
        Run build = run(dir, List.of(GO.toString(), "build", "-o", binary.toString(), source.toString()));
        if (build.exit() != 0) {
            throw new IllegalStateException("go build failed:\n" + build.output());
        }
        return Optional.of(new GoTlogVerifier(binary));
    }

    Run check(List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        command.addAll(args);
        return run(binary.getParent(), command);
    }

    private static Run run(Path dir, List<String> command) throws Exception {
        ProcessBuilder builder =
                new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().put("GO111MODULE", "off");
        builder.environment().put("GOPATH", GOPATH.toString());
        builder.environment().put("GOCACHE", dir.resolve("go-cache").toString());
        builder.environment().put("GOFLAGS", "");
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(command.get(0) + " did not finish:\n" + out);
        }
        return new Run(p.exitValue(), out);
    }
}
