package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.StrictJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ProoflineCliTest {
    @TempDir
    Path tmp;

    record Run(int exit, String out, String err) {}

    static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = ProoflineCli.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private String conformance(String name) {
        return Conformance.file(name).toString();
    }

    private String dataDir() {
        return tmp.resolve("data").toString();
    }

    @Test
    void verifyThenReceiptVerifyWithThePublishedKey() throws Exception {
        Run verify = cli("verify", conformance("requests/invoice-draft.json"), "--data-dir", dataDir());
        assertEquals(0, verify.exit(), verify.err());
        JsonNode receipt = StrictJson.parse(verify.out());
        assertEquals("fail", receipt.get("result").asString());
        Path receiptFile = Files.writeString(tmp.resolve("receipt.json"), verify.out());

        JsonNode key =
                StrictJson.parse(cli("key", "public", "--data-dir", dataDir()).out());
        assertEquals("Ed25519", key.get("algorithm").asString());
        assertEquals(receipt.get("attestation").get("key_version"), key.get("keyVersion"));
        String publicKey = key.get("publicKey").asString();

        Run valid = cli(
                "receipt-verify",
                receiptFile.toString(),
                "--public-key",
                publicKey,
                "--request",
                conformance("requests/invoice-draft.json"));
        assertEquals(new Run(0, "valid\n", ""), valid);
        Run otherRequest = cli(
                "receipt-verify",
                receiptFile.toString(),
                "--public-key",
                publicKey,
                "--request",
                conformance("requests/invoice-final.json"));
        assertEquals(1, otherRequest.exit());
        assertTrue(otherRequest.out().startsWith("invalid: output_hash differs"), otherRequest.out());
        Run asScore = cli("receipt-verify", receiptFile.toString(), "--public-key", publicKey, "--context", "score");
        assertEquals(1, asScore.exit());
        assertTrue(asScore.out().startsWith("invalid: signature does not match"), asScore.out());

        ObjectNode tampered = (ObjectNode) receipt.deepCopy();
        tampered.put("result", "pass");
        Path tamperedFile = Files.writeString(tmp.resolve("tampered.json"), tampered.toString());
        assertEquals(
                1,
                cli("receipt-verify", tamperedFile.toString(), "--public-key", publicKey)
                        .exit());
    }

    @Test
    void developmentKeyIsCreatedOnceOwnerOnly() throws Exception {
        String first = cli("key", "public", "--data-dir", dataDir()).out();
        String second = cli("key", "public", "--data-dir", dataDir()).out();
        assertEquals(first, second);
        List<Path> keys;
        try (Stream<Path> files = Files.list(tmp.resolve("data/keys"))) {
            keys = files.toList();
        }
        assertEquals(1, keys.size());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keys.get(0))));
        String rotated = cli("key", "rotate", "--data-dir", dataDir()).out();
        assertTrue(rotated.contains("\"keyVersion\":\"v2-"), rotated);
    }

    @Test
    void keyCommandsUseTheKeyRingUpUsesWhereverKeysDirPutsIt() throws Exception {
        Path ring = tmp.resolve("elsewhere/keys");
        String first = cli("key", "public", "--data-dir", dataDir(), "--keys-dir", ring.toString())
                .out();
        String rotated = cli("key", "rotate", "--data-dir", dataDir(), "--keys-dir", ring.toString())
                .out();
        assertTrue(rotated.contains("\"keyVersion\":\"v2-"), rotated);
        assertEquals(
                rotated,
                cli("key", "public", "--data-dir", dataDir(), "--keys-dir", ring.toString())
                        .out());
        try (Stream<Path> files = Files.list(ring)) {
            assertEquals(2, files.count(), "both keys in the ring keys.dir names");
        }
        assertFalse(Files.exists(tmp.resolve("data/keys")), "nothing in <data.dir>/keys");
        assertTrue(StrictJson.parse(first).get("keyVersion").asString().startsWith("v1-"), first);
        assertEquals(2, cli("key", "public", "--no-such-setting", "x").exit(), "an unknown setting is a usage error");
    }

    @Test
    void explicitKeyFileSigns() throws Exception {
        cli("key", "public", "--data-dir", dataDir());
        Path keyFile;
        try (Stream<Path> files = Files.list(tmp.resolve("data/keys"))) {
            keyFile = files.findFirst().orElseThrow();
        }
        Run verify = cli("verify", conformance("requests/invoice-final.json"), "--key", keyFile.toString());
        assertEquals(0, verify.exit(), verify.err());
        String publicKey = StrictJson.parse(
                        cli("key", "public", "--key", keyFile.toString()).out())
                .get("publicKey")
                .asString();
        Path receipt = Files.writeString(tmp.resolve("r.json"), verify.out());
        assertEquals(
                0,
                cli("receipt-verify", receipt.toString(), "--public-key", publicKey)
                        .exit());
    }

    @Test
    void referenceReceiptsVerifyFromTheCommandLine() {
        String key = Conformance.expected()
                .get("reference_public_key")
                .get("publicKey")
                .asString();
        for (String name : List.of("receipts/invoice-draft.full.json", "receipts/invoice-final.compact.json")) {
            assertEquals(new Run(0, "valid\n", ""), cli("receipt-verify", conformance(name), "--public-key", key));
        }
    }

    @Test
    void hashPrintsTheFourHashesAndTheCanonicalRequest() {
        Run run = cli("hash", conformance("requests/request-hash-vector-1.json"));
        assertEquals(0, run.exit(), run.err());
        List<String> lines = run.out().lines().toList();
        JsonNode vector = Conformance.expected().get("hashes").get("requests/request-hash-vector-1.json");
        assertEquals("request_hash " + vector.get("request_hash").asString(), lines.get(3));
        assertEquals("canonical_request " + vector.get("canonical_request").asString(), lines.get(4));
        assertTrue(lines.get(0).startsWith("output_hash "));
        Run draft = cli("hash", conformance("requests/invoice-draft.json"));
        JsonNode expected = Conformance.expected().get("hashes").get("requests/invoice-draft.json");
        List<String> hashes = new ArrayList<>();
        for (String name : List.of("output_hash", "schema_hash", "rules_hash", "request_hash")) {
            hashes.add(name + " " + expected.get(name).asString());
        }
        assertEquals(hashes, draft.out().lines().limit(4).toList());
    }

    @Test
    void invalidRequestExitsTwoWithTheErrorDocumentOnStderr() throws Exception {
        Path bad = Files.writeString(
                tmp.resolve("bad.json"),
                "{\"task_id\":\"t\",\"expected_schema\":{},\"submitted_output\":1,\"rules\":[{\"type\":\"nope\",\"field\":\"a\"}]}");
        for (String command : List.of("verify", "hash")) {
            Run run = command.equals("verify")
                    ? cli(command, bad.toString(), "--data-dir", dataDir())
                    : cli(command, bad.toString());
            assertEquals(2, run.exit());
            assertEquals("", run.out());
            JsonNode error = StrictJson.parse(run.err());
            assertEquals("invalid_request", error.get("code").asString());
            assertEquals(
                    "rules[0].type", error.get("fields").get(0).get("field").asString());
        }
    }

    /** Each is refused before anything is asked of a network, with a line naming what is wrong. */
    @Test
    void badNumbersUrlsAndTextAreUsageErrorsNamedPlainly() throws Exception {
        for (String interval : new String[] {"abc", "-5", "0", "99999999999999999999"}) {
            Run run = cli("tlog", "monitor", "http://127.0.0.1:1", "--interval", interval);
            assertEquals(2, run.exit(), run.err());
            assertTrue(run.err().contains("--interval takes a whole number from 1 to 86400"), run.err());
        }
        Run max = cli("receipts", "--follow", "--max", "abc", "--bootstrap-servers", "127.0.0.1:1");
        assertEquals(2, max.exit(), max.err());
        assertTrue(max.err().contains("--max takes a whole number"), max.err());
        Run joined = cli("receipts", "--follow", "--max=abc", "--bootstrap-servers=127.0.0.1:1");
        assertEquals(2, joined.exit(), joined.err());
        assertTrue(joined.err().contains("--max takes a whole number"), "--name=value is read: " + joined.err());
        for (String url : new String[] {"localhost:8080", "ftp://host", "http://a b"}) {
            Run score = cli("score", "seller", "--url", url);
            assertEquals(2, score.exit(), score.err());
            assertTrue(score.err().contains("'" + url + "'"), score.err());
            assertFalse(score.err().contains("unexpected"), score.err());
        }
        Path latin1 = tmp.resolve("latin1.json");
        Files.write(latin1, "{\"task_id\": \"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1));
        Run publish = cli("publish", latin1.toString(), "--bootstrap-servers", "127.0.0.1:1");
        assertEquals(2, publish.exit(), publish.err());
        assertTrue(publish.err().contains("not UTF-8 text"), publish.err());
    }

    @Test
    void usageErrorsExitTwo() {
        assertEquals(2, cli().exit());
        assertEquals(2, cli("frobnicate").exit());
        assertEquals(2, cli("verify").exit());
        assertEquals(
                2,
                cli("receipt-verify", conformance("receipts/invoice-draft.full.json"))
                        .exit());
        assertEquals(
                2,
                cli("receipt-verify", conformance("receipts/invoice-draft.full.json"), "--public-key", "AAAA")
                        .exit());
        assertEquals(2, cli("verify", tmp.resolve("missing.json").toString()).exit());
        assertEquals(
                2, cli("verify", conformance("expected.json"), "--bogus", "1").exit());
        assertEquals(0, cli("--help").exit());
    }

    @Test
    void everyCommandAnswersHelpWithItsOwnUsage() throws Exception {
        for (String command : List.of(
                "verify",
                "receipt-verify",
                "hash",
                "key",
                "up",
                "caller",
                "broker",
                "publish",
                "receipts",
                "score",
                "load",
                "bench")) {
            Run help = cli(command, "--help");
            assertEquals(0, help.exit(), command);
            assertTrue(help.out().startsWith("usage: proofline " + command + " "), help.out());
            assertTrue(ProoflineCli.USAGE.contains("  " + command + " "), command + " is listed");
        }
        Run afterArguments = cli("score", "some-agent", "--url", "http://127.0.0.1:1", "-h");
        assertEquals(0, afterArguments.exit(), "help wins over the command, nothing is called");
        Run unknown = cli("score", "a", "--bogus", "1");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.err().contains("--help"), unknown.err());
    }

    /** A mistyped bench option is a usage error at once, not after minutes of warm-up. */
    @Test
    void benchRefusesABadPhaseOrAgentCurveBeforeStartingAnything() {
        Run badCurve = cli("bench", "--only", "agents", "--agent-curve", "50,0,1000");
        assertEquals(2, badCurve.exit());
        assertTrue(badCurve.err().contains("--agent-curve needs a positive whole number"), badCurve.err());
        Run notNumbers = cli("bench", "--only", "agents", "--agent-curve", "50,many");
        assertEquals(2, notNumbers.exit());
        Run badPhase = cli("bench", "--only", "agentz");
        assertEquals(2, badPhase.exit());
        assertTrue(badPhase.err().contains("instances, agents"), badPhase.err());
    }

    /** A replay may take hours: where its report goes is checked before it starts, not at the end. */
    @Test
    void replayRefusesAnOutputItCannotWriteBeforeReadingAnything() throws Exception {
        Path file = Files.writeString(tmp.resolve("not-a-directory"), "x");
        // No broker at this address: a replay that started would fail there, not on --out.
        Run run = cli(
                "replay",
                "--from",
                "2026-01-01T00:00:00Z",
                "--out",
                file.toString(),
                "--bootstrap-servers",
                "127.0.0.1:1",
                "--data-dir",
                dataDir());
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("--out " + file + " is not a directory the report can be written to"), run.err());
        assertEquals("", run.out());
    }

    /** Under the test runner stdout is a pipe, as in a container: no secret is printed to it. */
    @Test
    void stdoutHereIsNoTerminal() {
        assertFalse(Terminal.isStdout());
    }
}
