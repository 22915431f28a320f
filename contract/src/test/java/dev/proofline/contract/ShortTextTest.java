package dev.proofline.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ShortTextTest {
    private static final String EMOJI = "\ud83d\ude00";

    @Test
    void shortTextStaysAsItIs() {
        assertEquals("abc", ShortText.atMost("abc", 3));
        assertEquals("ab" + EMOJI, ShortText.atMost("ab" + EMOJI, 4));
    }

    @Test
    void aCutNeverSplitsASurrogatePair() {
        // Cut after 4 chars: the fifth is the emoji's low half, so the whole emoji goes.
        assertEquals("aaaa...", ShortText.atMost("aaaa" + EMOJI + "bbbb", 8));
        assertEquals("aaa" + EMOJI + "...", ShortText.atMost("aaa" + EMOJI + "bbbb", 8));
        assertEquals("aaaa", ShortText.prefix("aaaa" + EMOJI, 5));
        assertEquals("aaaa" + EMOJI, ShortText.prefix("aaaa" + EMOJI, 6));
    }

    @Test
    void aLoneSurrogateAlreadyThereIsNotItsConcern() {
        // Only a pair is kept whole; text that already holds a lone half is cut like any other.
        assertEquals("aaa\ud83d", ShortText.prefix("aaa\ud83dbbb", 4));
    }

    @Test
    void anErrorDocumentCutsAFieldNameWithoutSplittingAnEmoji() {
        String field = "k".repeat(496) + EMOJI + "tail";
        ErrorDocument error =
                ErrorDocument.invalidRequest(java.util.List.of(new FieldProblem(field, "is not allowed", "remove it")));
        String cut = error.toJson().get("fields").get(0).get("field").asString();
        assertEquals("k".repeat(496) + "...", cut);
    }
}
