package dev.proofline.load;

import dev.proofline.attestor.StrictJson;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Invoice-like verification requests: an invoice with one to six lines of real-looking SKUs,
 * quantities and prices, the JSON Schema it must meet and two business rules (line totals add up
 * to the total; SKUs are unique). Amounts are whole cents, so a correct invoice adds up exactly.
 * The same seed gives the same invoices.
 */
public final class InvoiceRequests {
    private static final String[] SKUS = {
        "CRWL-100",
        "CRWL-200",
        "GPU-H100-HR",
        "EMBED-1M",
        "OCR-PAGE",
        "TRANSLATE-1K",
        "STORAGE-GB",
        "SUPPORT-HR",
        "AUDIT-DOC",
        "INDEX-10K"
    };
    private static final String[] CURRENCIES = {"USD", "EUR"};
    private static final ObjectNode SCHEMA = schema();
    private static final ArrayNode RULES = rules();

    private final Random random;

    public InvoiceRequests(long seed) {
        this.random = new Random(seed);
    }

    /** A request for {@code agentId}'s invoice, correct or with the given defect. */
    public String request(String agentId, String taskId, Defect defect) {
        ObjectNode request = StrictJson.NODES.objectNode();
        request.put("task_id", taskId);
        request.put("agent_id", agentId);
        request.set("expected_schema", SCHEMA);
        request.set("submitted_output", invoice(defect));
        request.set("rules", RULES);
        request.put("enforce_rules", true);
        return request.toString();
    }

    private ObjectNode invoice(Defect defect) {
        ObjectNode invoice = StrictJson.NODES.objectNode();
        invoice.put(
                "invoice_id",
                defect == Defect.MALFORMED_INVOICE_ID
                        ? "inv-" + random.nextInt(100_000)
                        : String.format("INV-%04d", random.nextInt(10_000)));
        if (defect != Defect.MISSING_CURRENCY) {
            invoice.put("currency", CURRENCIES[random.nextInt(CURRENCIES.length)]);
        }
        invoice.put("issued_to", "buyer-" + (1 + random.nextInt(400)));
        int lines = (defect == Defect.DUPLICATE_SKU ? 2 : 1) + random.nextInt(5);
        List<String> skus = new ArrayList<>(List.of(SKUS));
        Collections.shuffle(skus, random);
        ArrayNode items = invoice.putArray("line_items");
        BigDecimal total = BigDecimal.ZERO;
        for (int i = 0; i < lines; i++) {
            int qty = defect == Defect.ZERO_QUANTITY && i == 0 ? 0 : 1 + random.nextInt(12);
            BigDecimal unit = BigDecimal.valueOf(50 + random.nextInt(25_000), 2); // 0.50 to 250.49
            BigDecimal lineTotal = unit.multiply(BigDecimal.valueOf(qty)).setScale(2, RoundingMode.UNNECESSARY);
            String sku = defect == Defect.DUPLICATE_SKU && i == 1 ? skus.get(0) : skus.get(i);
            items.addObject()
                    .put("sku", sku)
                    .put("qty", qty)
                    .put("unit_price", unit)
                    .put("line_total", lineTotal);
            total = total.add(lineTotal);
        }
        if (defect == Defect.TOTAL_MISMATCH) {
            total = total.add(BigDecimal.valueOf(1 + random.nextInt(5_000), 2)); // a forgotten discount, a typo
        }
        invoice.put("total", total);
        return invoice;
    }

    private static ObjectNode schema() {
        return (ObjectNode) StrictJson.parse("""
                {"type": "object",
                 "required": ["invoice_id", "currency", "line_items", "total"],
                 "properties": {
                   "invoice_id": {"type": "string", "pattern": "^INV-[0-9]{4}$"},
                   "currency": {"enum": ["USD", "EUR"]},
                   "issued_to": {"type": "string"},
                   "line_items": {"type": "array", "minItems": 1, "items": {
                     "type": "object", "required": ["sku", "qty", "line_total"],
                     "properties": {"sku": {"type": "string"}, "qty": {"type": "integer", "minimum": 1},
                                    "unit_price": {"type": "number", "minimum": 0},
                                    "line_total": {"type": "number", "minimum": 0}}}},
                   "total": {"type": "number", "minimum": 0}}}
                """);
    }

    private static ArrayNode rules() {
        return (ArrayNode) StrictJson.parse("""
                [{"type": "sum_equals", "field": "line_items[].line_total", "equals_field": "total", "tolerance": 0.005},
                 {"type": "unique", "field": "line_items[].sku"}]
                """);
    }
}
