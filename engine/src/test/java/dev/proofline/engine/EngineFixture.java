package dev.proofline.engine;

import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.SigningKey;
import dev.proofline.attestor.StrictJson;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** An engine with a fresh key, and shortcuts to run requests through it. */
final class EngineFixture {
    static final Instant AT = Instant.parse("2026-11-29T10:15:30.123456789Z");
    static final UUID ID = UUID.fromString("00000000-0000-4000-8000-000000000001");

    final KeyRing keys = KeyRing.of(SigningKey.generate("v1-test", new SecureRandom()));
    final VerificationEngine engine;

    EngineFixture() {
        this(EngineSettings.defaults());
    }

    EngineFixture(EngineSettings settings) {
        engine = new VerificationEngine(settings, new Attestor(keys));
    }

    ParseOutcome parse(String json) {
        return engine.parser().parse(json.getBytes(StandardCharsets.UTF_8));
    }

    ParseOutcome parse(JsonNode json) {
        return engine.parser().parse(json);
    }

    ObjectNode verify(JsonNode request) {
        ParseOutcome outcome = parse(request);
        if (outcome instanceof ParseOutcome.Invalid invalid) {
            throw new AssertionError(
                    "request unexpectedly invalid: " + invalid.error().toJson());
        }
        return engine.verify(((ParseOutcome.Valid) outcome).request(), ID, AT).tree();
    }

    ObjectNode verify(String json) {
        return verify(StrictJson.parse(json));
    }

    ObjectNode invalid(String json) {
        ParseOutcome outcome = parse(json);
        if (outcome instanceof ParseOutcome.Valid) {
            throw new AssertionError("request unexpectedly valid: " + json);
        }
        return ((ParseOutcome.Invalid) outcome).error().toJson();
    }

    /** A request around an output, a schema and optional extra fields (JSON text without braces). */
    static String request(String schema, String output, String extra) {
        return "{\"task_id\":\"t-1\",\"agent_id\":\"agent-1\",\"expected_schema\":" + schema + ",\"submitted_output\":"
                + output + (extra.isEmpty() ? "" : "," + extra) + "}";
    }
}
