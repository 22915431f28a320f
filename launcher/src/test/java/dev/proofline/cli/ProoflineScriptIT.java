package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.StrictJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's path, for real: the ./proofline script over the packaged jar, in its own JVMs. */
class ProoflineScriptIT {
    @TempDir
    Path tmp;

    record Result(int exit, String out, String err) {}

    private Result proofline(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Conformance.repoRoot().resolve("proofline").toString());
        command.addAll(List.of(args));
        Path out = tmp.resolve("out.txt");
        Path err = tmp.resolve("err.txt");
        Process p = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "proofline did not finish");
        return new Result(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void verifyAndReceiptVerifyThroughTheScript() throws Exception {
        String data = tmp.resolve("data").toString();
        Result verify = proofline(
                "verify", Conformance.file("requests/invoice-draft.json").toString(), "--data-dir", data);
        assertEquals(0, verify.exit(), verify.err());
        Path receipt = Files.writeString(tmp.resolve("receipt.json"), verify.out());
        String key = StrictJson.parse(
                        proofline("key", "public", "--data-dir", data).out())
                .get("publicKey")
                .asString();
        Result check = proofline(
                "receipt-verify",
                receipt.toString(),
                "--public-key",
                key,
                "--request",
                Conformance.file("requests/invoice-draft.json").toString());
        assertEquals(new Result(0, "valid\n", ""), check);
        Result bad = proofline("verify", Conformance.file("expected.json").toString(), "--data-dir", data);
        assertEquals(2, bad.exit());
        assertEquals("invalid_request", StrictJson.parse(bad.err()).get("code").asString());
    }
}
