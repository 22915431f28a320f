package dev.proofline.query.payment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.StrictJson;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class X402Test {
    private final PaymentTerms terms = new PaymentTerms(
            Optional.of("http://facilitator"), "eip155:31337", "0xToken", "USDC", "2", "0xPayTo", 10_000, 0, 60, 20);

    @Test
    void requirementsAreTheExactSchemeWithTheAmountAsAStringAndTheTokensDomain() {
        ObjectNode requirements = terms.requirements(10_000);
        assertEquals(
                "{\"scheme\":\"exact\",\"network\":\"eip155:31337\",\"amount\":\"10000\",\"asset\":\"0xToken\","
                        + "\"payTo\":\"0xPayTo\",\"maxTimeoutSeconds\":60,\"extra\":{\"name\":\"USDC\",\"version\":\"2\"}}",
                requirements.toString());
    }

    @Test
    void aSettlementNeverConfirmedStillAnswersPaymentResponseAsX402Says() {
        ObjectNode payload = (ObjectNode) StrictJson.parse(
                "{\"x402Version\":2,\"payload\":{\"authorization\":{\"from\":\"0xPayer\",\"nonce\":\"0x1\"}}}");
        assertEquals(
                "{\"success\":false,\"errorReason\":\"unexpected_settle_error\",\"transaction\":\"\","
                        + "\"network\":\"eip155:31337\",\"payer\":\"0xPayer\"}",
                X402Payments.unconfirmed(terms, payload).toString());
        assertFalse(
                X402Payments.unconfirmed(terms, StrictJson.NODES.objectNode()).has("payer"));
    }

    @Test
    void acceptedTermsMustMatchWhatWasOfferedNumbersByValueExtraAtLeast() {
        ObjectNode offered = terms.requirements(10_000);
        ObjectNode same = (ObjectNode) StrictJson.parse(
                "{\"scheme\":\"exact\",\"network\":\"eip155:31337\",\"amount\":\"10000\",\"asset\":\"0xToken\","
                        + "\"payTo\":\"0xPayTo\",\"maxTimeoutSeconds\":60.0,"
                        + "\"extra\":{\"name\":\"USDC\",\"version\":\"2\",\"more\":1}}");
        assertTrue(X402Payments.sameTerms(same, offered));
        for (String field : new String[] {"amount", "asset", "payTo", "network", "scheme"}) {
            ObjectNode changed = same.deepCopy();
            changed.put(field, "other");
            assertFalse(X402Payments.sameTerms(changed, offered), field);
        }
        ObjectNode otherDomain = same.deepCopy();
        ((ObjectNode) otherDomain.get("extra")).put("version", "1");
        assertFalse(X402Payments.sameTerms(otherDomain, offered));
        assertFalse(X402Payments.sameTerms(null, offered));
    }

    @Test
    void aPayersAddressAndNonceReachTheLogOnlyAsHex() {
        assertEquals("0xAbC0123", X402Payments.hexOrUnknown(StrictJson.parse("\"0xAbC0123\"")));
        for (String json : new String[] {"\"0xab\\nWARN forged\"", "\"abc\"", "\"0x\"", "12", "null", "{}"}) {
            assertEquals("?", X402Payments.hexOrUnknown(StrictJson.parse(json)), json);
        }
        assertEquals("?", X402Payments.hexOrUnknown(StrictJson.parse("\"0x" + "a".repeat(129) + "\"")));
    }

    @Test
    void onlyVersion2MatchesTheOfferWhateverSizeTheVersionNumberIs() {
        ObjectNode offered = terms.requirements(10_000);
        for (String version : new String[] {"2", "1", "3", "0", "-2", "4294967298", "18446744073709551618"}) {
            ObjectNode payload = (ObjectNode) StrictJson.parse("{\"x402Version\":" + version + ",\"payload\":{}}");
            payload.set("accepted", offered.deepCopy());
            assertEquals(version.equals("2"), X402Payments.matchesOffer(payload, offered), version);
        }
    }

    @Test
    void anAuthorizationMustOutliveTheVerificationAndItsSettlement() {
        long now = 1_800_000_000L;
        for (String validBefore :
                new String[] {"\"1800000020\"", "1800000020", "\"1800000060\"", "\"9" + "9".repeat(70) + "\""}) {
            assertFalse(X402Payments.expiresTooSoon(authorization(validBefore), now, 20), validBefore);
        }
        for (String validBefore : new String[] {"\"1800000019\"", "1800000019", "\"0\"", "\"1799999000\"", "-5"}) {
            assertTrue(X402Payments.expiresTooSoon(authorization(validBefore), now, 20), validBefore);
        }
        // Unreadable or absent: refused, never left to a facilitator that reads hex, padding and
        // exponents (JavaScript's BigInt) and would pass an authorization expiring in seconds.
        String later = Long.toHexString(now + 3600);
        for (String validBefore : new String[] {
            "\"soon\"",
            "\"-5\"",
            "\"0x" + later + "\"",
            "\" " + (now + 3600) + "\"",
            "\"" + (now + 3600) + " \"",
            "1.8e9",
            "1800003600.0",
            "\"+1800003600\"",
            "\"\"",
            "null",
            "{}",
            "true"
        }) {
            assertTrue(X402Payments.expiresTooSoon(authorization(validBefore), now, 20), validBefore);
        }
        // None at all (another scheme's payload): the facilitator refuses what it cannot settle.
        assertFalse(X402Payments.expiresTooSoon(StrictJson.NODES.objectNode(), now, 20));
    }

    @Test
    void termsWhoseAuthorizationsCouldNotOutliveTheirSettlementAreRefused() {
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> new PaymentTerms(
                        Optional.of("http://facilitator"),
                        "eip155:31337",
                        "0xToken",
                        "USDC",
                        "2",
                        "0xPayTo",
                        1,
                        0,
                        20,
                        20));
        assertTrue(refused.getMessage().contains("payment.max.timeout.seconds"), refused.getMessage());
        new PaymentTerms(Optional.empty(), "eip155:31337", "0xToken", "USDC", "2", "", 1, 0, 20, 20); // payment off
    }

    private static ObjectNode authorization(String validBefore) {
        return (ObjectNode) StrictJson.parse("{\"x402Version\":2,\"payload\":{\"authorization\":{\"from\":\"0xPayer\","
                + "\"nonce\":\"0x1\",\"validBefore\":" + validBefore + "}}}");
    }

    @Test
    void onePaymentIsOneAuthorizationWhateverTheJsonAroundItSays() {
        ObjectNode a = (ObjectNode) StrictJson.parse("{\"x402Version\":2,"
                + "\"accepted\":{\"network\":\"eip155:1\",\"asset\":\"0xAbC\"},"
                + "\"payload\":{\"signature\":\"0x11\",\"authorization\":{\"from\":\"0xF00\",\"nonce\":\"0xAB\"}}}");
        ObjectNode b = a.deepCopy();
        ((ObjectNode) b.get("payload")).put("signature", "0X11").put("extra", "noise");
        ((ObjectNode) b.get("payload").get("authorization"))
                .put("from", "0xf00")
                .put("nonce", "0xab");
        ((ObjectNode) b.get("accepted")).put("asset", "0xabc");
        assertEquals(X402Payments.paymentIdentity(a), X402Payments.paymentIdentity(b));
        ObjectNode c = a.deepCopy();
        ((ObjectNode) c.get("payload").get("authorization")).put("nonce", "0xAC");
        assertFalse(X402Payments.paymentIdentity(a).equals(X402Payments.paymentIdentity(c)));
    }

    @Test
    void anonymousIpv6CallersShareTheAllowanceOfTheirSlash64() {
        var one = new dev.proofline.query.access.RequestCaller(
                dev.proofline.access.Submitter.address("2001:db8:1:2:aaaa::1"), null, false);
        var two = new dev.proofline.query.access.RequestCaller(
                dev.proofline.access.Submitter.address("2001:db8:1:2:bbbb::9"), null, false);
        var v4 = new dev.proofline.query.access.RequestCaller(
                dev.proofline.access.Submitter.address("203.0.113.7"), null, false);
        assertEquals(FreeAllowance.allowanceKey(one), FreeAllowance.allowanceKey(two));
        assertEquals("address:203.0.113.7", FreeAllowance.allowanceKey(v4));
    }

    @Test
    void aPaymentHeaderIsStandardBase64OfAVersion2Payload() {
        String good = Base64.getEncoder()
                .encodeToString("{\"x402Version\":2,\"accepted\":{},\"payload\":{}}".getBytes(StandardCharsets.UTF_8));
        assertEquals(2, X402.decodePayload(good).get("x402Version").asInt());
        for (String bad : new String[] {
            "not base64!",
            Base64.getEncoder().encodeToString("not json".getBytes(StandardCharsets.UTF_8)),
            Base64.getEncoder().encodeToString("[1]".getBytes(StandardCharsets.UTF_8)),
            Base64.getEncoder().encodeToString("{\"x402Version\":2}".getBytes(StandardCharsets.UTF_8)),
            // No canonical form, and a payment's identity and terms are read through it.
            Base64.getEncoder()
                    .encodeToString("{\"x402Version\":2,\"accepted\":{\"maxTimeoutSeconds\":1e400},\"payload\":{}}"
                            .getBytes(StandardCharsets.UTF_8)),
            Base64.getEncoder()
                    .encodeToString("{\"x402Version\":2,\"accepted\":{},\"payload\":{\"a\":\"\\ud800\"}}"
                            .getBytes(StandardCharsets.UTF_8))
        }) {
            assertThrows(IllegalArgumentException.class, () -> X402.decodePayload(bad), bad);
        }
    }

    /**
     * Over MCP a malformed payment is refused with the terms again (the x402 MCP transport answers an
     * invalid payment with PaymentRequired); over HTTP with a plain 400. Neither reaches the facilitator
     * or the claims, so none is given here.
     */
    @Test
    void aMalformedPaymentOverMcpGetsTheTermsAgainAndOverHttpAPlain400() throws Exception {
        X402Payments payments =
                new X402Payments(terms, null, null, null, PaymentListener.NONE, java.time.Clock.systemUTC());
        X402Payments.Priced priced = payments.score();
        ObjectNode notAPayload = (ObjectNode) StrictJson.parse("{\"x402Version\":2}");

        dev.proofline.query.verify.Admission.Decision overMcp =
                payments.decide(null, new PaymentOffer.Mcp(notAPayload), "mcp://tool/verify_schema", priced);
        dev.proofline.query.Answer mcp = ((dev.proofline.query.verify.Admission.Decision.Refuse) overMcp).answer();
        assertEquals(
                "payment_malformed", StrictJson.parse(mcp.json()).get("code").asString());
        ObjectNode required = (ObjectNode)
                StrictJson.parse(Base64.getDecoder().decode(mcp.headers().get(X402.PAYMENT_REQUIRED)));
        assertEquals(2, required.get("x402Version").asInt());
        assertEquals("mcp://tool/verify_schema", required.at("/resource/url").asString());

        dev.proofline.query.verify.Admission.Decision overHttp = payments.decide(
                null,
                new PaymentOffer.Header(Base64.getEncoder().encodeToString("{}".getBytes(StandardCharsets.UTF_8))),
                "http://127.0.0.1/verify/schema",
                priced);
        dev.proofline.query.Answer http = ((dev.proofline.query.verify.Admission.Decision.Refuse) overHttp).answer();
        assertEquals(400, http.status());
        assertFalse(http.headers().containsKey(X402.PAYMENT_REQUIRED));

        ObjectNode unpaid = (ObjectNode) StrictJson.parse(Base64.getDecoder()
                .decode(((dev.proofline.query.verify.Admission.Decision.Refuse)
                                payments.decide(null, PaymentOffer.NONE, "mcp://tool/verify_schema", priced))
                        .answer()
                        .headers()
                        .get(X402.PAYMENT_REQUIRED)));
        assertTrue(unpaid.get("error").asString().contains("_meta"), unpaid.toString());
    }
}
