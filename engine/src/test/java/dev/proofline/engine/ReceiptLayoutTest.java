package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.CanonicalJson;
import dev.proofline.attestor.CanonicalWriter;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.SigningKey;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * A receipt is written straight to bytes twice, in documented order to publish and in RFC 8785
 * order to sign ({@link ReceiptLayout}). Whatever a receipt holds, the two must say the same thing:
 * the signed form is exactly the canonical form of what is published, the signature checks out
 * with nothing but the published receipt, and the published bytes are compact JSON.
 */
class ReceiptLayoutTest {
    private static final KeyRing KEYS = KeyRing.of(SigningKey.generate("v1-layout", new SecureRandom()));

    static Stream<String> requests() {
        StringBuilder many = new StringBuilder("[");
        for (int i = 0; i < 80; i++) {
            many.append(i == 0 ? "" : ",").append("\"x").append(i).append("\\u00e9\\n\\\"\"");
        }
        many.append("]");
        return Stream.of(
                EngineFixture.request("{\"type\":\"object\"}", "{}", ""),
                EngineFixture.request("{\"type\":\"integer\"}", "1.5", "\"detail\":\"compact\""),
                EngineFixture.request(
                        "{\"type\":\"array\",\"items\":{\"type\":\"integer\"}}",
                        many.toString(),
                        "\"strict_content_check\":true,\"bounds\":{\"[]\":{\"min\":1}}"),
                EngineFixture.request(
                        "{\"type\":\"array\"}",
                        "[1,2,3.25]",
                        "\"rules\":[{\"type\":\"sum_equals\",\"field\":\"[]\",\"equals\":7}],\"enforce_rules\":true"),
                // A name the layout must escape, and an id a caller is not bound to: not counted.
                "{\"task_id\":\"t\\u2028\\ud83d\\ude00\",\"agent_id\":\"bound-elsewhere\",\"expected_schema\":"
                        + "{\"required\":[\"\\u0000k\"]},\"submitted_output\":{}}");
    }

    @ParameterizedTest
    @MethodSource("requests")
    void theSignedFormIsTheCanonicalFormOfWhatIsPublished(String json) {
        for (int listCap : List.of(EngineSettings.DEFAULT_LIST_CAP, 2)) {
            EngineSettings settings = new EngineSettings(
                    "https://verifier.example/", "Proofline \"test\"", listCap, 1 << 20, 16, 2_000_000, true);
            VerificationEngine engine = new VerificationEngine(settings, new Attestor(KEYS));
            Verdict verdict = engine.process(
                    json.getBytes(StandardCharsets.UTF_8),
                    EngineFixture.ID,
                    EngineFixture.AT,
                    agent -> agent.startsWith("bound")
                            ? Scoring.notCounted("bound to another caller")
                            : Scoring.COUNTED);
            SignedReceipt signed = ((Verdict.Signed) verdict).receipt();
            ObjectNode published = signed.tree();

            assertEquals(
                    signed.json(), new String(CanonicalWriter.compactInTreeOrder(published), StandardCharsets.UTF_8));
            assertTrue(
                    new ReceiptVerifier(KEYS.trustedKeys())
                            .verifySignature(published, AttestationContext.VERIFY)
                            .valid(),
                    signed.json());
            ObjectNode unsigned = published.deepCopy();
            unsigned.remove("attestation");
            ParseOutcome.Valid valid =
                    (ParseOutcome.Valid) engine.parser().parse(json.getBytes(StandardCharsets.UTF_8));
            UnsignedReceipt body = engine.evaluate(valid.request(), EngineFixture.ID, EngineFixture.AT);
            if (published.has("scoring")) {
                assertFalse(signed.counted());
                // docs/access.md shows it so; no reference receipt carries one.
                assertEquals(
                        List.of("counted", "reason"),
                        List.copyOf(published.get("scoring").propertyNames()));
            } else {
                assertArrayEquals(CanonicalJson.toCanonicalBytes(unsigned), VerificationEngine.canonical(body));
            }
            assertEquals(published.get("result").asString(), signed.result());
            assertEquals(published.get("attestation").get("key_version").asString(), signed.keyVersion());
        }
    }
}
