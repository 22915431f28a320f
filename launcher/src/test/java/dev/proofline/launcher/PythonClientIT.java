package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python client ({@code clients/python}) as a user gets it: built into a wheel by its script,
 * installed without any package index into a fresh {@code python3 -m venv} (so its pure-Python
 * Ed25519 verifier runs: the venv has no {@code cryptography}), its unit tests run against the
 * installed copy, then its live check against a real node: both conformance invoices give the
 * expected verdicts and receipts that verify against the node's agent-card, a forged receipt is
 * refused, a missing field raises {@code InvalidRequestError}, and past the free allowance
 * {@code AllowanceExhaustedError} carries {@code retry_after}.
 */
class PythonClientIT {
    private static final Path CLIENT = Conformance.repoRoot().resolve("clients/python");

    @TempDir
    Path tmp;

    @Test
    void theWheelInstalledInAFreshVenvVerifiesAgainstARealNode() throws Exception {
        Assumptions.assumeTrue(
                run(tmp, 60, "python3", "-c", "import venv, ensurepip").exit() == 0,
                "SKIPPED: python3 with venv and ensurepip is not installed, so the Python client was not tested");
        Result wheel =
                run(CLIENT, 60, "python3", "build_wheel.py", tmp.resolve("dist").toString());
        assertEquals(0, wheel.exit(), wheel.output());
        String wheelFile = wheel.output().strip().lines().reduce((a, b) -> b).orElseThrow();
        assertTrue(wheelFile.endsWith("proofline-0.1.0-py3-none-any.whl"), wheel.output());

        Path venv = tmp.resolve("venv");
        Result created = run(tmp, 120, "python3", "-m", "venv", venv.toString());
        assertEquals(0, created.exit(), created.output());
        String python = venv.resolve("bin/python").toString();
        Result installed = run(tmp, 120, python, "-m", "pip", "install", "--no-index", "--quiet", wheelFile);
        assertEquals(0, installed.exit(), installed.output());
        Result where = run(tmp, 30, python, "-c", "import proofline, sys; print(proofline.__file__)");
        assertTrue(where.output().contains(venv.toString()), "imports the installed copy: " + where.output());
        Result noCryptography = run(tmp, 30, python, "-c", "import cryptography");
        assertTrue(noCryptography.exit() != 0, "the fresh venv has no cryptography, so pure Python verifies");

        // Run from tmp so that "import proofline" finds the installed wheel, not the source tree.
        Result unit = run(
                tmp,
                300,
                python,
                "-m",
                "unittest",
                "discover",
                "-s",
                CLIENT.resolve("tests").toString());
        assertEquals(0, unit.exit(), unit.output());
        assertTrue(!unit.output().contains("skipped"), "no unit test skipped:\n" + unit.output());

        Map<String, String> settings = Map.of("allowance.per.day", "4");
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"));
                ProoflineNode node = TestNodes.start(kafka.bootstrapServers(), tmp.resolve("node"), settings)) {
            Result live = run(
                    tmp,
                    300,
                    python,
                    CLIENT.resolve("tests/live_check.py").toString(),
                    node.httpUrl(),
                    "--expect-429",
                    "10");
            assertEquals(0, live.exit(), live.output());
            for (String check : List.of(
                    "ok   verdict requests/invoice-draft.json: fail",
                    "ok   verdict requests/invoice-final.json: pass",
                    "ok   forged receipt refused: bad_signature",
                    "ok   missing expected_schema: invalid_request (422)",
                    "ok   free allowance: 429 free_allowance_exhausted at request 3")) {
                assertTrue(live.output().contains(check), check + " in:\n" + live.output());
            }
        }
    }

    private record Result(int exit, String output) {}

    private static Result run(Path dir, int timeoutSeconds, String... command)
            throws IOException, InterruptedException {
        Process process = new ProcessBuilder(new ArrayList<>(List.of(command)))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return new Result(-1, output + "\n(timed out)");
        }
        return new Result(process.exitValue(), output);
    }
}
