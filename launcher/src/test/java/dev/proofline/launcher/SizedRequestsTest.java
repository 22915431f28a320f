package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.Conformance;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.SigningKey;
import dev.proofline.attestor.StrictJson;
import dev.proofline.engine.EngineSettings;
import dev.proofline.engine.ParseOutcome;
import dev.proofline.engine.RequestParser;
import dev.proofline.engine.VerificationEngine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class SizedRequestsTest {

    @Test
    void growsTheInvoiceToAValidRequestOfAtLeastTheSize() throws Exception {
        String template = Files.readString(Conformance.file("requests/invoice-draft.json"));
        RequestParser parser = new VerificationEngine(
                        EngineSettings.defaults(),
                        new Attestor(KeyRing.of(SigningKey.generate("sized", new SecureRandom()))))
                .parser();
        for (int bytes : new int[] {1_000, 10_000, 100_000}) {
            String grown = SizedRequests.grownTo(template, bytes);
            assertTrue(grown.length() >= bytes, "at least " + bytes + " bytes");
            assertTrue(grown.length() < bytes * 1.1 + 200, "not far past it");
            JsonNode items = StrictJson.parse(grown).path("submitted_output").path("line_items");
            Set<String> skus = new HashSet<>();
            items.forEach(item -> skus.add(item.path("sku").asString()));
            assertEquals(items.size(), skus.size(), "every sku its own");
            assertTrue(parser.parse(grown.getBytes(StandardCharsets.UTF_8)) instanceof ParseOutcome.Valid);
        }
    }
}
