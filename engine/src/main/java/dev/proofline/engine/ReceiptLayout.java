package dev.proofline.engine;

import dev.proofline.attestor.Attestation;
import dev.proofline.attestor.CanonicalWriter;
import dev.proofline.attestor.StrictJson;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.stream.IntStream;

/**
 * The receipt of {@code docs/receipt.md}, written straight to bytes in either of its two orders: the
 * documented order a published receipt shows (into a {@link CanonicalWriter#compact} writer), and
 * RFC 8785's order, which is what is signed (into a canonical one). The layout is declared once
 * here, in documented order, and the canonical order is derived from it by sorting the keys.
 *
 * <p>Why not a tree: a receipt was built as a Jackson tree and walked twice, sorted into the signed
 * message by the engine and in tree order for the published record by the topology. In a profile of
 * the engine, building it took 13% of the Java samples and the signed form 26%, and the published
 * walk came on top. Its shape is fixed, so each key's place in either order is known before any
 * receipt exists.
 */
final class ReceiptLayout {

    /** The receipt's members in documented order; a member's key is its name in lower case. */
    private enum Member {
        SUMMARY,
        NEXT_ACTIONS,
        RESULT,
        VERIFICATION_ID,
        TASK_ID,
        AGENT_ID,
        OUTPUT_HASH,
        SCHEMA_HASH,
        RULES_HASH,
        REQUEST_HASH,
        VERIFIED_AT,
        VERIFIER_VERSION,
        ENFORCE_RULES,
        STRICT_CONTENT_CHECK,
        ERRORS,
        ERRORS_TOTAL,
        ERRORS_OMITTED,
        ERRORS_DETAIL,
        ERRORS_DETAIL_TOTAL,
        ERRORS_DETAIL_OMITTED,
        FLAGS,
        FLAGS_TOTAL,
        FLAGS_OMITTED,
        HINTS,
        HINTS_TOTAL,
        HINTS_OMITTED,
        SCHEMA_COMPLIANCE,
        INTEGRITY_CHECKS,
        OVERALL,
        SCORING,
        VERIFY;

        private final String key = name().toLowerCase(Locale.ROOT);
        private final String quotedKey = "\"" + key + "\":";
    }

    private static final Member[] DOCUMENTED = Member.values();
    // String order is UTF-16 code unit order, RFC 8785's.
    private static final Member[] SORTED = Arrays.stream(DOCUMENTED)
            .sorted(Comparator.comparing(member -> member.key))
            .toArray(Member[]::new);
    /** Only a full receipt ({@code "detail": "full"}) has these. */
    private static final Set<Member> FULL_ONLY = EnumSet.of(Member.REQUEST_HASH);

    static {
        FULL_ONLY.addAll(EnumSet.range(Member.ERRORS, Member.OVERALL));
    }

    private static final Keys SUMMARY = Keys.of("result", "blocking_checks");
    private static final Keys FOR_WHOM = Keys.of("action", "for");
    private static final Keys USING = Keys.of("action", "using");
    private static final Keys ERROR_DETAIL = Keys.of("check", "path", "expected", "found", "message");
    private static final Keys FLAG = Keys.of("check", "field", "severity", "detail");
    private static final Keys HINT = Keys.of("source", "check", "path", "expected", "found");
    private static final Keys RATIO = Keys.of("ratio", "passed", "total");
    private static final Keys SCORING = Keys.of("counted", "reason");

    private ReceiptLayout() {}

    /**
     * Writes the receipt; with an {@code attestation} (published form only) it comes last, as every
     * signed answer shows it.
     */
    static CanonicalWriter write(CanonicalWriter out, UnsignedReceipt receipt, Attestation attestation) {
        boolean canonical = out.sortsKeys();
        if (canonical && attestation != null) {
            throw new IllegalArgumentException("a signed message never holds its own attestation");
        }
        boolean first = true;
        for (Member member : canonical ? SORTED : DOCUMENTED) {
            if (!has(receipt, member)) {
                continue;
            }
            out.ascii(first ? "{" : ",").ascii(member.quotedKey);
            first = false;
            value(out, receipt, member);
        }
        if (attestation != null) {
            attestation.writeTo(out.ascii(",\"attestation\":"));
        }
        return out.ascii("}");
    }

    private static boolean has(UnsignedReceipt receipt, Member member) {
        if (member == Member.SCORING) {
            return !receipt.scoring().counted();
        }
        return receipt.full() || !FULL_ONLY.contains(member);
    }

    /** A switch expression, so that a member added without its value does not compile. */
    private static CanonicalWriter value(CanonicalWriter out, UnsignedReceipt r, Member member) {
        return switch (member) {
            case SUMMARY -> summary(out, r);
            case NEXT_ACTIONS -> nextActions(out, r.pass());
            case RESULT -> out.string(r.result());
            case VERIFICATION_ID -> text(out, r.verificationId());
            case TASK_ID -> text(out, r.taskId());
            case AGENT_ID -> text(out, r.agentId());
            case OUTPUT_HASH -> text(out, r.hashes().outputHash());
            case SCHEMA_HASH -> text(out, r.hashes().schemaHash());
            case RULES_HASH -> text(out, r.hashes().rulesHash());
            case REQUEST_HASH -> text(out, r.hashes().requestHash());
            case VERIFIED_AT -> text(out, r.verifiedAt());
            case VERIFIER_VERSION -> text(out, EngineSettings.VERIFIER_VERSION);
            case ENFORCE_RULES -> bool(out, r.enforceRules());
            case STRICT_CONTENT_CHECK -> bool(out, r.strictContentCheck());
            case ERRORS -> list(out, r.errors(), r.errorsKept(), (w, f) -> text(w, f.message()));
            case ERRORS_TOTAL, ERRORS_DETAIL_TOTAL -> integer(out, r.errors().size());
            case ERRORS_OMITTED, ERRORS_DETAIL_OMITTED ->
                integer(out, r.errors().size() - r.errorsKept());
            case ERRORS_DETAIL -> list(out, r.errors(), r.errorsKept(), ReceiptLayout::errorDetail);
            case FLAGS -> list(out, r.flags(), r.flagsKept(), ReceiptLayout::flag);
            case FLAGS_TOTAL -> integer(out, r.flags().size());
            case FLAGS_OMITTED -> integer(out, r.flags().size() - r.flagsKept());
            case HINTS -> list(out, r.hints(), r.hintsKept(), ReceiptLayout::hint);
            case HINTS_TOTAL -> integer(out, r.hints().size());
            case HINTS_OMITTED -> integer(out, r.hints().size() - r.hintsKept());
            case SCHEMA_COMPLIANCE -> ratio(out, r.schemaCompliance());
            case INTEGRITY_CHECKS -> ratio(out, r.integrityChecks());
            case OVERALL -> ratio(out, r.overall());
            case SCORING -> scoring(out, r.scoring());
            case VERIFY -> r.verify().writeTo(out);
        };
    }

    private static CanonicalWriter summary(CanonicalWriter out, UnsignedReceipt r) {
        for (int i : SUMMARY.order(out)) {
            SUMMARY.key(out, i);
            if (i == 0) {
                out.string(r.result());
            } else {
                out.ascii("[");
                List<String> checks = r.blockingChecks();
                for (int c = 0; c < checks.size(); c++) {
                    text(c == 0 ? out : out.ascii(","), checks.get(c));
                }
                out.ascii("]");
            }
        }
        return out.ascii("}");
    }

    private static CanonicalWriter nextActions(CanonicalWriter out, boolean pass) {
        out.ascii("[");
        if (pass) {
            FOR_WHOM.strings(out, "attach_receipt", "seller");
            FOR_WHOM.strings(out.ascii(","), "proceed_to_payment", "buyer");
        } else {
            USING.strings(out, "repair_and_reverify", "hints");
            FOR_WHOM.strings(out.ascii(","), "withhold_payment", "buyer");
        }
        return out.ascii("]");
    }

    /** The first {@code kept} findings, each written by {@code entry}. */
    private static CanonicalWriter list(
            CanonicalWriter out, List<Finding> findings, int kept, BiConsumer<CanonicalWriter, Finding> entry) {
        out.ascii("[");
        for (int i = 0; i < kept; i++) {
            entry.accept(i == 0 ? out : out.ascii(","), findings.get(i));
        }
        return out.ascii("]");
    }

    private static void errorDetail(CanonicalWriter out, Finding f) {
        ERROR_DETAIL.strings(out, f.check(), f.path(), f.expected(), f.found(), f.message());
    }

    private static void flag(CanonicalWriter out, Finding f) {
        FLAG.strings(out, f.check(), f.field(), f.blocking() ? "error" : "warning", f.detail());
    }

    private static void hint(CanonicalWriter out, Finding f) {
        HINT.strings(out, f.source().wireName(), f.check(), f.path(), f.expected(), f.found());
    }

    private static CanonicalWriter ratio(CanonicalWriter out, UnsignedReceipt.Ratio ratio) {
        for (int i : RATIO.order(out)) {
            RATIO.key(out, i);
            switch (i) {
                // Through a number node, so each order spells it as before: 1.0 published, 1 signed.
                case 0 -> out.value(StrictJson.NODES.numberNode(ratio.ratio()));
                case 1 -> integer(out, ratio.passed());
                default -> integer(out, ratio.total());
            }
        }
        return out.ascii("}");
    }

    private static CanonicalWriter scoring(CanonicalWriter out, Scoring scoring) {
        for (int i : SCORING.order(out)) {
            SCORING.key(out, i);
            if (i == 0) {
                bool(out, scoring.counted());
            } else {
                text(out, scoring.reason());
            }
        }
        return out.ascii("}");
    }

    /** A string, or {@code null}. */
    private static CanonicalWriter text(CanonicalWriter out, String value) {
        return value == null ? out.ascii("null") : out.string(value);
    }

    private static CanonicalWriter bool(CanonicalWriter out, boolean value) {
        return out.ascii(value ? "true" : "false");
    }

    private static CanonicalWriter integer(CanonicalWriter out, int value) {
        return out.ascii(Integer.toString(value));
    }

    /** A nested object's keys in documented order, and the order RFC 8785 sorts them in. */
    private static final class Keys {
        private final String[] quoted;
        private final int[] documented;
        private final int[] sorted;

        private Keys(String[] names) {
            quoted = Arrays.stream(names).map(name -> "\"" + name + "\":").toArray(String[]::new);
            documented = IntStream.range(0, names.length).toArray();
            sorted = IntStream.range(0, names.length)
                    .boxed()
                    .sorted(Comparator.comparing(i -> names[i]))
                    .mapToInt(Integer::intValue)
                    .toArray();
        }

        static Keys of(String... names) {
            return new Keys(names);
        }

        /** The members' indexes in the order {@code out} writes them. */
        int[] order(CanonicalWriter out) {
            return out.sortsKeys() ? sorted : documented;
        }

        /** Writes member {@code index}'s key, opening the object if it is the first in this writer's order. */
        void key(CanonicalWriter out, int index) {
            out.ascii(index == order(out)[0] ? "{" : ",").ascii(quoted[index]);
        }

        /** An object of strings (or nulls), given in documented order. */
        void strings(CanonicalWriter out, String... values) {
            for (int i : order(out)) {
                key(out, i);
                text(out, values[i]);
            }
            out.ascii("}");
        }
    }
}
