package dev.proofline.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.SigningKey;
import dev.proofline.engine.EngineSettings;
import dev.proofline.engine.ParseOutcome;
import dev.proofline.engine.VerificationEngine;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The load generator's invoices through the real engine: correct ones pass, each defect fails for its reason. */
class InvoiceRequestsTest {
    private final VerificationEngine engine = new VerificationEngine(
            EngineSettings.defaults(), new Attestor(KeyRing.of(SigningKey.generate("v1-test", new SecureRandom()))));

    private ObjectNode verify(String json) {
        ParseOutcome outcome = engine.parser().parse(json.getBytes(StandardCharsets.UTF_8));
        return engine.verify(
                        assertInstanceOf(ParseOutcome.Valid.class, outcome, json)
                                .request(),
                        UUID.randomUUID(),
                        Instant.now())
                .tree();
    }

    @Test
    void correctInvoicesPassEveryCheck() {
        InvoiceRequests invoices = new InvoiceRequests(1);
        for (int i = 0; i < 300; i++) {
            ObjectNode receipt = verify(invoices.request("invoice-agent-01", "t-" + i, Defect.NONE));
            assertEquals("pass", receipt.get("result").asString(), receipt.toString());
            assertEquals(1.0, receipt.get("overall").get("ratio").asDouble());
        }
    }

    @Test
    void everyDefectFailsForItsOwnReason() {
        Map<Defect, String> reason = Map.of(
                Defect.TOTAL_MISMATCH, "sum_equals",
                Defect.DUPLICATE_SKU, "unique",
                Defect.MISSING_CURRENCY, "required",
                Defect.ZERO_QUANTITY, "minimum",
                Defect.MALFORMED_INVOICE_ID, "pattern");
        InvoiceRequests invoices = new InvoiceRequests(2);
        for (Defect defect : reason.keySet()) {
            for (int i = 0; i < 50; i++) {
                ObjectNode receipt = verify(invoices.request("invoice-agent-02", "t-" + i, defect));
                assertEquals("fail", receipt.get("result").asString(), defect + ": " + receipt);
                String errors = receipt.get("errors").toString();
                assertTrue(
                        errors.contains(reason.get(defect)),
                        defect + " should fail on " + reason.get(defect) + ": " + errors);
            }
        }
    }
}
