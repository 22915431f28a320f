package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.StrictJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * A receipt Proofline signs verifies under code that shares nothing with Proofline: a Python
 * script with its own RFC 8785 and the `cryptography` package, rebuilding the message from the
 * receipt alone. The same script accepts the reference service's receipts, so it is a fair judge.
 */
class IndependentVerifierTest {
    private final EngineFixture fixture = new EngineFixture();

    @Test
    void pythonVerifiesOurReceiptsAndTheReferenceOnes(@TempDir Path tmp) throws Exception {
        Assumptions.assumeTrue(
                pythonWithCryptography(),
                "SKIPPED: python3 with the 'cryptography' package is missing, so no independent verification ran");
        Path script = tmp.resolve("independent_verify.py");
        try (InputStream in = getClass().getResourceAsStream("/independent_verify.py")) {
            Files.copy(in, script);
        }
        ObjectNode request = (ObjectNode) Conformance.json("requests/invoice-draft.json");
        request.put("task_id", "facture-\u20ac-\u00fc-\ud83d\ude00"); // non-ASCII survives both canonicalizers
        ObjectNode receipt = fixture.verify(request);
        String key =
                Base64.getEncoder().encodeToString(fixture.keys.signingKey().rawPublicKey());
        String verifyContext = AttestationContext.VERIFY.id();

        assertEquals("valid", run(script, write(tmp, "ours.json", receipt.toString()), key, verifyContext));
        receipt.put("result", "pass");
        assertEquals("invalid", run(script, write(tmp, "tampered.json", receipt.toString()), key, verifyContext));
        String referenceKey = Conformance.expected()
                .get("reference_public_key")
                .get("publicKey")
                .asString();
        assertEquals(
                "valid",
                run(script, Conformance.file("receipts/invoice-draft.full.json"), referenceKey, verifyContext));
        // Pretty-printed with 1.0 ratios, as a person would save it: still the same signed content.
        ObjectNode compact = fixture.verify(Conformance.json("requests/invoice-final.json"));
        assertEquals("valid", run(script, write(tmp, "pretty.json", StrictJson.pretty(compact)), key, verifyContext));
    }

    private static Path write(Path dir, String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    private static String run(Path script, Path receipt, String key, String context) throws Exception {
        Process p = new ProcessBuilder("python3", script.toString(), receipt.toString(), key, context)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor(60, TimeUnit.SECONDS);
        return out;
    }

    private static boolean pythonWithCryptography() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import cryptography")
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
