package dev.proofline.query.payment;

import dev.proofline.access.AllowanceLedger;
import dev.proofline.access.CallerRecord;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ErrorCode;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.query.Answer;
import dev.proofline.query.access.ClientAddresses;
import dev.proofline.query.access.RequestCaller;
import dev.proofline.query.verify.Admission;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import tools.jackson.databind.node.ObjectNode;

/**
 * The free allowance ({@code docs/payments.md}): so many verifications a day (UTC) per caller, REST
 * and MCP together, counted across instances by the {@link AllowanceLedger}. The caller is its key
 * when it sends one (a key may carry its own allowance, or none), else its client address. Only a
 * served verification is counted (a 504 {@code receipt_pending} too: it names the receipt the
 * caller fetches later); a request that ends in any other error gives its place back.
 */
public final class FreeAllowance {
    public static final String REMAINING = "Free-Allowance-Remaining";
    public static final String LIMIT = "Free-Allowance-Limit";
    public static final String RESETS = "Free-Allowance-Resets";

    private final AllowanceLedger ledger;
    private final long perDay;
    private final String mcpUrl;
    private final Clock clock;

    public FreeAllowance(AllowanceLedger ledger, long perDay, String mcpUrl, Clock clock) {
        this.ledger = ledger;
        this.perDay = perDay;
        this.mcpUrl = mcpUrl;
        this.clock = clock;
    }

    public long perDay() {
        return perDay;
    }

    /** The caller's daily allowance: its key's own, else the deployment's. */
    public long limitFor(RequestCaller caller) {
        CallerRecord key = caller.key();
        return key != null && key.allowance() != null ? key.allowance() : perDay;
    }

    /**
     * Admits a request while the caller has free verifications left, adding the allowance headers to
     * a served answer; once they are used up, {@code usedUp} decides (a 429, or payment).
     */
    public Admission admission(RequestCaller caller, Supplier<Admission.Decision> usedUp) {
        return () -> {
            long limit = limitFor(caller);
            if (limit == CallerRecord.UNLIMITED) {
                return new Admission.Decision.Proceed(UnaryOperator.identity());
            }
            Optional<AllowanceLedger.Reservation> reserved = ledger.reserve(allowanceKey(caller), limit);
            if (reserved.isEmpty()) {
                return usedUp.get();
            }
            return new Admission.Decision.Proceed(answer -> {
                if (answer.status() == 504) {
                    // receipt_pending names the receipt the caller will fetch: that is a served check.
                    return withHeaders(answer, caller);
                }
                if (answer.isError()) {
                    ledger.refund(reserved.get()); // an error is never charged
                    return answer;
                }
                return withHeaders(answer, caller);
            });
        };
    }

    /** What is left, on a served answer (headers on REST, {@code _meta} on MCP). */
    public Answer withHeaders(Answer answer, RequestCaller caller) {
        AllowanceLedger.Standing standing = ledger.standing(allowanceKey(caller), limitFor(caller));
        return answer.withHeader(REMAINING, Long.toString(standing.remaining()))
                .withHeader(LIMIT, Long.toString(standing.limit()))
                .withHeader(RESETS, nextReset().toString());
    }

    /** Used up and no payment taken here: 429, retryable at the next UTC midnight. */
    public Answer exhausted(RequestCaller caller) {
        ErrorDocument error = new ErrorDocument(
                        ErrorCode.FREE_ALLOWANCE_EXHAUSTED,
                        "This client's " + limitFor(caller) + " free checks for today are used up (REST and MCP"
                                + " share them); they reset at " + nextReset() + ".",
                        List.of())
                .retryAfter(secondsToReset())
                .with(freeTrialMember(caller, false));
        return Answer.error(error);
    }

    /** {"free_trial": {...}}: the caller's live state, as a 402 or 429 body reports it. */
    public ObjectNode freeTrialMember(RequestCaller caller, boolean paymentApplies) {
        AllowanceLedger.Standing standing = ledger.standing(allowanceKey(caller), limitFor(caller));
        ObjectNode member = StrictJson.NODES.objectNode();
        ObjectNode trial = member.putObject("free_trial");
        trial.put("available", standing.remaining() > 0);
        trial.put("via", "mcp+rest");
        trial.put("transport", "streamable-http");
        trial.put("url", mcpUrl);
        trial.put("tool", "verify_schema");
        trial.put("calls_per_client_per_day", Long.toString(standing.limit()));
        trial.put("remaining_calls_today", standing.remaining());
        trial.put("resets_at", nextReset().toString());
        trial.put(
                "client",
                caller.key() != null
                        ? "identified by its key; the same key's REST and MCP verification calls share one allowance"
                        : "identified by request IP address; the same address's REST and MCP verification calls"
                                + " share one allowance");
        trial.put("rest_free", true);
        trial.put(
                "message",
                standing.remaining() > 0
                        ? "This client has " + standing.remaining() + " of " + standing.limit()
                                + " free checks left today (REST and MCP share them)."
                        : "This client's " + standing.limit() + " free checks for today are used up (REST and MCP"
                                + " share them); they reset at " + nextReset() + "."
                                + (paymentApplies ? " Payment applies until then." : ""));
        trial.put("code", standing.remaining() > 0 ? "free_trial_available" : "free_trial_exhausted");
        return member;
    }

    /**
     * Whose allowance a request uses: the key, or the client address, where an IPv6 address counts
     * by its /64 (one host gets a whole /64 and could otherwise take a fresh address per request).
     */
    static String allowanceKey(RequestCaller caller) {
        String id = caller.submitter().id();
        if (caller.key() != null || !id.startsWith("address:") || id.indexOf(':', "address:".length()) < 0) {
            return id;
        }
        try {
            java.net.InetAddress address = java.net.InetAddress.getByName(id.substring("address:".length()));
            if (address.getAddress().length != 16) {
                return id;
            }
            return "address:" + ClientAddresses.client(address).getHostAddress() + "/64";
        } catch (java.net.UnknownHostException e) {
            return id;
        }
    }

    /** The next UTC midnight, when every allowance starts again. */
    public Instant nextReset() {
        return clock.instant().truncatedTo(ChronoUnit.DAYS).plus(1, ChronoUnit.DAYS);
    }

    public int secondsToReset() {
        return (int) Math.max(1, Duration.between(clock.instant(), nextReset()).toSeconds());
    }

    /** For {@code /llms.txt}: the live numbers of the allowance. */
    public String describe() {
        return "Each caller gets " + perDay + " free verifications a day (UTC), shared by POST /verify/schema,"
                + " POST /verify/deliverable and the MCP tool verify_schema; the caller is its key when it sends"
                + " one (a key may carry its own allowance), else its client address. They reset at 00:00 UTC"
                + " (next: " + nextReset().atOffset(ZoneOffset.UTC) + "). Served answers carry " + REMAINING
                + ", " + LIMIT + " and " + RESETS + ".";
    }
}
