package dev.proofline.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentIdsTest {
    @Test
    void realIdsInAnyScriptAreAccepted() {
        for (String id : List.of(
                "seller-7",
                "invoice-agent-01",
                "test-sandbox",
                "агент-7",
                "代理-7",
                "λόγος-7",
                "a".repeat(200),
                "😀".repeat(200),
                "ops:team@acme.example",
                "a b")) {
            assertEquals(Optional.empty(), AgentIds.problem(id), id);
        }
    }

    @Test
    void idsThatCouldNotBeQueriedOrThatDeceiveAreRefused() {
        for (String id : List.of(
                "",
                "a".repeat(201),
                "{agent_id}",
                ":agent_id",
                "<agent_id>",
                ".",
                "..",
                "../../../etc/passwd",
                "a\\b",
                "a?b",
                "a#b",
                "nul\u0000byte",
                "bell\u0007",
                "esc\u001b[31mred",
                "line\nbreak",
                "rtl\u202eevil",
                "zero\u200bwidth",
                "isolate\u2066x",
                "sep\u2028x",
                "lone\ud800surrogate",
                " leading",
                "trailing ",
                "t\u0435st-mixed",
                "тест-cyrillic-and-latin",
                "\u0442\u0435\u0455\u0442-",
                "private\ue000use")) {
            assertTrue(AgentIds.problem(id).isPresent(), "accepted: " + id.replace("\u0000", "\\0"));
        }
    }

    @Test
    void everyAsciiCharacterIsJudgedAsUnicodesTablesJudgeIt() {
        for (char c = 0; c < 0x80; c++) {
            String id = "a" + c + "b";
            int type = Character.getType(c);
            boolean refused = type == Character.CONTROL || c == '/' || c == '\\' || c == '?' || c == '#';
            assertEquals(refused, AgentIds.problem(id).isPresent(), "U+" + Integer.toHexString(c));
            if (Character.isLetter(c)) {
                assertEquals(Character.UnicodeScript.LATIN, Character.UnicodeScript.of(c));
                // Latin, so mixing it with a Cyrillic letter is refused.
                assertTrue(AgentIds.problem(c + "\u0431").isPresent(), "U+" + Integer.toHexString(c));
            }
        }
        assertTrue(AgentIds.problem("t\u0435st-x").isPresent(), "a look-alike test- id is still refused");
        assertTrue(AgentIds.problem("TEST-x").isPresent(), "so is one in capitals");
    }

    @Test
    void anIdThatReadsAsTestDashIsRefusedWhateverDrawsItsLettersAndDash() {
        for (String id : List.of(
                "test\u2011x1", // non-breaking hyphen
                "test\u2010x1", // hyphen
                "test\u2212x1", // minus sign
                "test\u2013x1", // en dash
                "test\uff0dx1", // full-width hyphen-minus
                "test\u02d7x1", // modifier letter minus
                "test\u058ax1", // Armenian hyphen
                "test\u2043x1", // hyphen bullet
                "\uff54\uff45\uff53\uff54-x1", // full-width letters
                "\ud835\udc2d\ud835\udc1e\ud835\udc2c\ud835\udc2d-x1", // mathematical bold
                "te\u017ft-x1", // long s
                "\u1d1best-x1", // small capital T
                "\u24c9est-x1", // circled T
                "\u13a2\u13ac\u13da\u13a2-x1", // Cherokee
                "\uab72\uab7c\uabaa\uab72-x1", // Cherokee small letters
                "t\u0301est-x1", // a t with a mark
                "test\u06d4x1", // Arabic full stop
                "test\u31d0x1", // CJK stroke
                "\u0372\u0395\u0405\u0372-1", // Greek sampi, Greek E, Cyrillic S
                "\ua68c\u0415\u0405\ua68c-1", // Cyrillic twe
                "\u2ca6est-x1", // Coptic tau
                "\u22a4est-1", // down tack
                "test\u1680x1", // Ogham space mark
                "t" + "\u0301".repeat(30) + "est-x1")) { // marks enough to hide est- from a short look
            assertTrue(AgentIds.problem(id).isPresent(), "accepted: " + id);
        }
        assertEquals(Optional.empty(), AgentIds.problem("test-x1"), "a real test- id");
        assertEquals(Optional.empty(), AgentIds.problem("tester\u2011x1"), "not test- at all");
        assertEquals(Optional.empty(), AgentIds.problem("\uff54\uff45\uff53\uff54\uff45\uff52"), "full-width 'tester'");
    }

    @Test
    void marksThatShowNothingAreRefusedInNewIdsOnly() {
        for (String id : List.of(
                "t\u034fest-x1", "test\ufe0f-x1", "agent\u3164x", "agent\udb40\udd00x", "agent-7\u2800", "\u2800")) {
            assertTrue(AgentIds.problem(id).isPresent(), "accepted: " + id);
            // An id an earlier version took can still be asked for: it is not a URL's problem.
            assertEquals(Optional.empty(), AgentIds.queryProblem(id), id);
        }
        assertEquals(Optional.empty(), AgentIds.queryProblem("test\u2011x1"), "a look-alike stored before");
        // A variation selector after a symbol or digit picks how it is drawn, as keyboards write emoji.
        assertEquals(Optional.empty(), AgentIds.problem("bot-\u2764\ufe0f"));
        assertEquals(Optional.empty(), AgentIds.problem("bot-1\ufe0f\u20e3"));
        assertTrue(AgentIds.queryProblem("a/b").isPresent(), "but never one a URL cannot carry");
    }

    @Test
    void anIdNotInNormalizationFormCIsRefused() {
        // The same name spelled with a combining mark: another id that looks the same.
        assertEquals(Optional.empty(), AgentIds.problem("\u00fcnic\u00f6d\u00e9-agent"));
        assertTrue(AgentIds.problem("u\u0308nico\u0308de\u0301-agent").isPresent());
    }
}
