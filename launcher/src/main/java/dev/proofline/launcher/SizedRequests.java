package dev.proofline.launcher;

import dev.proofline.attestor.StrictJson;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The bench's invoice grown to a size: its line items repeated (skus numbered) until the request
 * is at least that many bytes, so schema, rules, hashes and signing all scale with it. The total
 * is left as it was: the receipt fails its sum, as the draft invoice does, which is the same work.
 */
final class SizedRequests {
    private SizedRequests() {}

    static String grownTo(String template, int bytes) {
        ObjectNode request = (ObjectNode) StrictJson.parse(template);
        ArrayNode items = (ArrayNode) request.path("submitted_output").path("line_items");
        JsonNode first = items.get(0);
        int n = 0;
        while (request.toString().length() < bytes) {
            int batch = Math.max(
                    1, (bytes - request.toString().length()) / (first.toString().length() + 1));
            for (int i = 0; i < batch; i++) {
                ObjectNode copy = ((ObjectNode) first).deepCopy();
                copy.put("sku", "SKU-" + n++);
                items.add(copy);
            }
        }
        return request.toString();
    }
}
