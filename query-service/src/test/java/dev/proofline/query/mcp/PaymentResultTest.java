package dev.proofline.query.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ErrorCode;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.query.Answer;
import dev.proofline.query.payment.X402;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Payment answers as tool results, in the shapes of the x402 MCP transport (specs/transports-v2/mcp.md). */
class PaymentResultTest {
    private static final ObjectNode ACCEPTS = (ObjectNode) StrictJson.parse("{\"scheme\":\"exact\",\"network\":"
            + "\"eip155:31337\",\"amount\":\"1000\",\"asset\":\"0xA\",\"payTo\":\"0xB\",\"maxTimeoutSeconds\":60}");

    @Test
    void aPaymentRequirementIsStructuredContentAndTheWrappedText() {
        ObjectNode required = X402.paymentRequired("Payment required", "mcp://tool/verify_schema", "one", ACCEPTS);
        Answer answer = Answer.error(new ErrorDocument(ErrorCode.FREE_TRIAL_EXHAUSTED, "pay", List.of()))
                .withHeader(X402.PAYMENT_REQUIRED, X402.encode(required));

        McpSchema.CallToolResult result = McpEndpoint.result(answer);

        assertTrue(result.isError());
        assertEquals(required, tree(result.structuredContent()));
        JsonNode text =
                StrictJson.parse(((McpSchema.TextContent) result.content().get(0)).text());
        assertEquals(402, text.at("/x402~1error/code").asInt(), text.toString());
        assertEquals("Payment required", text.at("/x402~1error/message").asString());
        assertEquals(required, text.at("/x402~1error/data"));
    }

    @Test
    void aFailedSettlementIsTheRequirementWithTheSettlementInIt() {
        ObjectNode required =
                X402.paymentRequired("Payment settlement failed: insufficient_funds", "mcp://x", "one", ACCEPTS);
        ObjectNode settlement = (ObjectNode) StrictJson.parse("{\"success\":false,\"errorReason\":"
                + "\"insufficient_funds\",\"transaction\":\"\",\"network\":\"eip155:31337\"}");
        Answer answer = Answer.error(new ErrorDocument(ErrorCode.PAYMENT_SETTLEMENT_FAILED, "withheld", List.of()))
                .withHeader(X402.PAYMENT_RESPONSE, X402.encode(settlement))
                .withHeader(X402.PAYMENT_REQUIRED, X402.encode(required));

        McpSchema.CallToolResult result = McpEndpoint.result(answer);

        assertTrue(result.isError());
        JsonNode structured = tree(result.structuredContent());
        assertEquals(2, structured.get("x402Version").asInt());
        assertEquals(ACCEPTS, structured.get("accepts").get(0));
        assertEquals(settlement, structured.get(X402.MCP_PAYMENT_RESPONSE), structured.toString());
        assertEquals(settlement, tree(result.meta().get(X402.MCP_PAYMENT_RESPONSE)));
        JsonNode text =
                StrictJson.parse(((McpSchema.TextContent) result.content().get(0)).text());
        assertEquals(
                "Payment settlement failed: insufficient_funds",
                text.at("/x402~1error/message").asString());
    }

    @Test
    void aPaidAnswerKeepsItsTextAndCarriesTheSettlementInMeta() {
        ObjectNode settlement = (ObjectNode)
                StrictJson.parse("{\"success\":true,\"transaction\":\"0x1\",\"network\":\"eip155:31337\"}");
        Answer answer = Answer.ok("{\"result\":\"pass\"}").withHeader(X402.PAYMENT_RESPONSE, X402.encode(settlement));

        McpSchema.CallToolResult result = McpEndpoint.result(answer);

        assertEquals(
                "{\"result\":\"pass\"}",
                ((McpSchema.TextContent) result.content().get(0)).text());
        assertEquals(settlement, tree(result.meta().get(X402.MCP_PAYMENT_RESPONSE)));
    }

    private static JsonNode tree(Object value) {
        return StrictJson.MAPPER.valueToTree(value instanceof Map<?, ?> map ? map : value);
    }
}
