package dev.proofline.query.score;

import static dev.proofline.reputation.TestReceipts.receipt;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.SigningKey;
import dev.proofline.attestor.StrictJson;
import dev.proofline.engine.EngineSettings;
import dev.proofline.query.Answer;
import dev.proofline.reputation.AgentHistory;
import dev.proofline.reputation.AgentStanding;
import dev.proofline.reputation.query.AgentHistories;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which ids the score and reputation queries answer, and which they refuse. */
class ScoreQueriesTest {
    /** A look-alike an earlier version took (a non-breaking hyphen in "test-"), with a history. */
    private static final String STORED_LOOK_ALIKE = "test\u2011stored";

    private final Map<String, AgentHistory> stored =
            Map.of("seller-7", history("seller-7"), STORED_LOOK_ALIKE, history(STORED_LOOK_ALIKE));
    private final ScoreQueries queries = new ScoreQueries(
            new AgentHistories() {
                @Override
                public Optional<AgentHistory> find(String agentId) {
                    return Optional.ofNullable(stored.get(agentId));
                }

                @Override
                public Optional<AgentStanding> standing(String agentId) {
                    return find(agentId).map(h -> new AgentStanding(h, List.of()));
                }
            },
            new ScoreAnswers(
                    EngineSettings.defaults(),
                    new Attestor(KeyRing.of(SigningKey.generate("v1-test", new SecureRandom()))),
                    Clock.fixed(Instant.parse("2026-12-04T12:00:00Z"), ZoneOffset.UTC),
                    Duration.ofDays(30)));

    private static AgentHistory history(String agent) {
        return AgentHistory.empty(agent).with(receipt(1, agent, "pass"), 0, 1, Duration.ofDays(30));
    }

    @Test
    void lookAlikesNoRequestCanCarryAreRefusedUnlessTheyHaveAHistory() {
        for (String lookAlike : List.of(
                "Test-x", // reads as test-
                "\u0430bc", // Cyrillic a, then Latin bc
                "e\u0301", // e and a combining acute: not NFC
                "test\u2011nobody")) { // a non-breaking hyphen, nothing stored
            for (Answer answer : List.of(queries.score(lookAlike), queries.reputation(lookAlike))) {
                assertEquals(422, answer.status(), lookAlike + ": " + answer.json());
                assertEquals(
                        "agent_id",
                        StrictJson.parse(answer.json())
                                .get("fields")
                                .get(0)
                                .get("field")
                                .asString());
            }
        }
        assertEquals(200, queries.score(STORED_LOOK_ALIKE).status(), "an id an earlier version took");
        assertEquals(200, queries.reputation(STORED_LOOK_ALIKE).status());
        assertEquals(200, queries.score("seller-7").status());
        assertEquals(
                "no_data",
                StrictJson.parse(queries.score("seller-8").json()).get("reason").asString());
        assertEquals(
                "no_data",
                StrictJson.parse(queries.score("test-x").json()).get("reason").asString());
    }
}
