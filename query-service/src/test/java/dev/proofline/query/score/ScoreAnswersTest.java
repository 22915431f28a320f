package dev.proofline.query.score;

import static dev.proofline.reputation.TestReceipts.receipt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.AttestationContext;
import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.ReceiptVerifier;
import dev.proofline.attestor.SigningKey;
import dev.proofline.engine.EngineSettings;
import dev.proofline.reputation.AgentHistory;
import dev.proofline.reputation.AgentStanding;
import dev.proofline.reputation.TrustScore;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class ScoreAnswersTest {
    @Test
    void scoreAnswersAreSignedWithTheScoreContextAndShowTheirInputs() {
        KeyRing keys = KeyRing.of(SigningKey.generate("v1-test", new SecureRandom()));
        ScoreAnswers answers = new ScoreAnswers(
                EngineSettings.defaults(),
                new Attestor(keys),
                Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC),
                java.time.Duration.ofDays(30));
        AgentHistory h = AgentHistory.empty("seller-7")
                .with(receipt(1, "seller-7", "pass"), 0, 1, java.time.Duration.ofDays(30))
                .with(receipt(2, "seller-7", "fail"), 0, 2, java.time.Duration.ofDays(30));
        ObjectNode score =
                answers.score("seller-7", Optional.of(new AgentStanding(h, java.util.List.of())), Optional.empty());
        ReceiptVerifier verifier = new ReceiptVerifier(keys.trustedKeys());
        assertTrue(verifier.verifySignature(score, AttestationContext.SCORE).valid());
        assertFalse(verifier.verifySignature(score, AttestationContext.VERIFY).valid(), "contexts do not mix");
        assertEquals(
                TrustScore.rounded(TrustScore.of(1, 1)),
                score.get("trust_score").asDouble());
        assertEquals(2, score.get("inputs").get("total").asInt());
        assertEquals(
                "2026-11-29T12:00:00.000000+00:00",
                score.get("attestation").get("timestamp").asString());

        // Centuries ahead every weight has underflowed to 0: still a score (0), not "no data".
        ObjectNode farAhead = answers.score(
                "seller-7",
                Optional.of(new AgentStanding(h, java.util.List.of())),
                Optional.of(Instant.parse("2126-11-29T12:00:00Z")));
        assertEquals(0.0, farAhead.get("decay").get("effective_n").asDouble());
        assertTrue(farAhead.get("decayed_score").isNumber(), farAhead.toString());
        assertEquals(0.0, farAhead.get("decayed_score").asDouble());
        // The half-life as the setting gives it, a whole number of days.
        assertEquals("30", farAhead.get("decay").get("half_life_days").toString());

        ObjectNode none = answers.score("test-x", Optional.empty(), Optional.empty());
        assertTrue(none.get("decayed_score").isNull());
        assertEquals(0, none.get("windows").get("30d").get("passed").asInt());
        assertEquals("no_data", none.get("reason").asString());
        assertNull(none.get("trust_score").isNull() ? null : none.get("trust_score"));
        assertTrue(verifier.verifySignature(none, AttestationContext.SCORE).valid());
    }
}
