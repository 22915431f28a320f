package dev.proofline.attestor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class KeysAndSignaturesTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T10:00:00Z"), ZoneOffset.UTC);

    private static ObjectNode answer(String task) {
        return (ObjectNode) StrictJson.parse("{\"result\":\"pass\",\"task_id\":\"" + task + "\",\"ratio\":1.0}");
    }

    @Test
    void privateKeyFileIsOwnerOnlyPkcs8PemAndReadsBackWithItsVersion(@TempDir Path tmp) throws IOException {
        SigningKey key = SigningKey.generate("v7-2026-11-29", new SecureRandom());
        Path file = tmp.resolve("keys/signing.pem");
        KeyFiles.write(file, key);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        String text = Files.readString(file);
        assertTrue(text.contains("-----BEGIN PRIVATE KEY-----"), text);
        SigningKey read = KeyFiles.read(file);
        assertEquals("v7-2026-11-29", read.version());
        assertArrayEquals(key.rawPublicKey(), read.rawPublicKey());
        assertThrows(IOException.class, () -> KeyFiles.write(file, key), "never overwrites a key");
    }

    @Test
    void opensslReadsOurKeyAndWeReadOpensslsKey(@TempDir Path tmp) throws Exception {
        Assumptions.assumeTrue(run(tmp, "openssl", "version") == 0, "SKIPPED: openssl is not installed");
        SigningKey ours = SigningKey.generate("v1-2026-11-29", new SecureRandom());
        KeyFiles.write(tmp.resolve("ours.pem"), ours);
        assertEquals(
                0,
                run(tmp, "openssl", "pkey", "-in", "ours.pem", "-pubout", "-outform", "DER", "-out", "ours.pub.der"));
        byte[] der = Files.readAllBytes(tmp.resolve("ours.pub.der"));
        byte[] raw = java.util.Arrays.copyOfRange(der, der.length - 32, der.length); // SPKI ends with the raw key
        assertArrayEquals(ours.rawPublicKey(), raw);

        assertEquals(0, run(tmp, "openssl", "genpkey", "-algorithm", "ed25519", "-out", "theirs.pem"));
        SigningKey theirs = KeyFiles.read(tmp.resolve("theirs.pem"));
        assertTrue(theirs.version().startsWith("ed25519-"), theirs.version());
    }

    @Test
    void signatureVerifiesAndBindsTheContext() {
        KeyRing ring = KeyRing.of(SigningKey.generate("v1-test", new SecureRandom()));
        ObjectNode signed =
                new Attestor(ring).attest(answer("t1"), AttestationContext.VERIFY, "2026-11-29T10:00:00.000000+00:00");
        ReceiptVerifier verifier = new ReceiptVerifier(ring.trustedKeys());
        assertTrue(verifier.verifySignature(signed, AttestationContext.VERIFY).valid());
        VerificationOutcome asScore = verifier.verifySignature(signed, AttestationContext.SCORE);
        assertFalse(asScore.valid());
        byte[] raw = ring.signingKey().rawPublicKey();
        assertTrue(new ReceiptVerifier(TrustedKeys.ofAnyVersion(raw))
                .verifySignature(signed, AttestationContext.VERIFY)
                .valid());
        assertEquals(
                Base64.getEncoder().encodeToString(raw),
                ring.publishedKeys().get(0).publicKey());
        // The signature is outside what it signs: without its padding it is refused, as Python's
        // b64decode(validate=True) refuses it, so no two verifiers disagree on one receipt.
        ObjectNode unpadded = signed.deepCopy();
        ((ObjectNode) unpadded.get("attestation"))
                .put(
                        "signature",
                        signed.get("attestation").get("signature").asString().replace("=", ""));
        VerificationOutcome stripped = verifier.verifySignature(unpadded, AttestationContext.VERIFY);
        assertFalse(stripped.valid());
        assertTrue(stripped.reason().contains("base64"), stripped.reason());
    }

    @Test
    void rotationSignsWithTheNewestAndOldReceiptsStillVerify(@TempDir Path tmp) throws IOException {
        KeyRing first = KeyRing.openOrCreate(tmp.resolve("keys"), CLOCK);
        assertEquals("v1-2026-11-29", first.signingKey().version());
        ObjectNode old = new Attestor(first).attest(answer("old"), AttestationContext.VERIFY, "t");

        KeyRing rotated = first.rotate(CLOCK);
        assertEquals("v2-2026-11-29", rotated.signingKey().version());
        ObjectNode fresh = new Attestor(rotated).attest(answer("new"), AttestationContext.VERIFY, "t");
        assertEquals(
                "v2-2026-11-29", fresh.get("attestation").get("key_version").asString());

        KeyRing reopened = KeyRing.openOrCreate(tmp.resolve("keys"), CLOCK);
        assertEquals(2, reopened.publishedKeys().size());
        assertEquals("v2-2026-11-29", reopened.signingKey().version());
        ReceiptVerifier verifier = new ReceiptVerifier(reopened.trustedKeys());
        assertTrue(verifier.verifySignature(old, AttestationContext.VERIFY).valid());
        assertTrue(verifier.verifySignature(fresh, AttestationContext.VERIFY).valid());
    }

    @Test
    void unknownKeyVersionIsNamed() {
        KeyRing a = KeyRing.of(SigningKey.generate("v1-a", new SecureRandom()));
        KeyRing b = KeyRing.of(SigningKey.generate("v1-b", new SecureRandom()));
        ObjectNode signed = new Attestor(a).attest(answer("x"), AttestationContext.VERIFY, "t");
        VerificationOutcome outcome =
                new ReceiptVerifier(b.trustedKeys()).verifySignature(signed, AttestationContext.VERIFY);
        assertEquals("no trusted key has version v1-a", outcome.reason());
    }

    private static int run(Path dir, String... command) throws Exception {
        try {
            Process p = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * Instances started together on one empty keys directory: one writes the first key and the others
     * read that key whole, never a half-written file, and none fails for the race.
     */
    @Test
    void ringsOpenedTogetherOnAnEmptyDirectoryShareOneFirstKey(@TempDir Path tmp) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 25; round++) {
                Path dir = tmp.resolve("ring-" + round);
                java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
                List<java.util.concurrent.Future<KeyRing>> opening = new java.util.ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    opening.add(pool.submit(() -> {
                        go.await();
                        return KeyRing.openOrCreate(dir, CLOCK);
                    }));
                }
                go.countDown();
                java.util.Set<String> publicKeys = new java.util.HashSet<>();
                for (java.util.concurrent.Future<KeyRing> ring : opening) {
                    publicKeys.add(java.util.HexFormat.of()
                            .formatHex(ring.get(30, java.util.concurrent.TimeUnit.SECONDS)
                                    .signingKey()
                                    .rawPublicKey()));
                }
                assertEquals(1, publicKeys.size(), "one first key, round " + round);
                try (java.util.stream.Stream<Path> files = Files.list(dir)) {
                    assertEquals(
                            List.of("v1-2026-11-29.pem"),
                            files.map(f -> f.getFileName().toString()).toList());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
