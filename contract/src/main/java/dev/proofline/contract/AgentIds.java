package dev.proofline.contract;

import java.text.Normalizer;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What an agent id may be, checked where ids enter (a request's {@code agent_id}) so that any id
 * that can be stored can also be queried ({@code GET /score/{agent_id}}), and is safe in URLs, logs
 * and the dashboard: 1 to {@value #MAX_CODE_POINTS} Unicode code points; no control, format (bidi
 * overrides, zero-width), surrogate or line-separator characters; no leading or trailing space; no
 * {@code / \ ? #} (they would change a URL's path); not {@code .} or {@code ..}; not a
 * documentation placeholder; and not a look-alike: Latin letters are not mixed with Cyrillic or
 * Greek ones, and no id that merely looks like {@code test-} passes for one.
 */
public final class AgentIds {
    public static final int MAX_CODE_POINTS = 200;
    public static final String RULES = "1 to " + MAX_CODE_POINTS + " Unicode characters, without control or"
            + " invisible formatting characters, without / \\ ? #, not mixing Latin with Cyrillic or Greek letters";

    private static final Set<Character.UnicodeScript> CONFUSABLE_WITH_LATIN =
            EnumSet.of(Character.UnicodeScript.CYRILLIC, Character.UnicodeScript.GREEK);
    /**
     * Letters that look like those of "test" once NFKD has folded the compatibility forms (full
     * width, mathematical, circled, long s): Cyrillic, Greek, small capitals, Cherokee and Lisu.
     */
    private static final Map<Integer, Character> LOOK_ALIKES = Map.ofEntries(
            Map.entry(0x1D1B, 't'), // small capital T
            Map.entry(0x1D07, 'e'), // small capital E
            Map.entry(0xA731, 's'), // small capital S
            Map.entry(0x13A2, 't'), // Cherokee
            Map.entry(0x13AC, 'e'),
            Map.entry(0x13DA, 's'),
            Map.entry(0xAB72, 't'), // the same, in Cherokee's small letters
            Map.entry(0xAB7C, 'e'),
            Map.entry(0xABAA, 's'),
            Map.entry(0x0372, 't'), // Greek archaic sampi
            Map.entry(0x0373, 't'),
            Map.entry(0xA68C, 't'), // Cyrillic twe
            Map.entry(0xA68D, 't'),
            Map.entry(0x2CA6, 't'), // Coptic tau
            Map.entry(0x2CA7, 't'),
            Map.entry(0x22A4, 't'), // down tack
            Map.entry(0xA4D4, 't'), // Lisu
            Map.entry(0xA4F0, 'e'),
            Map.entry(0xA4E2, 's'),
            Map.entry(0x0442, 't'),
            Map.entry(0x0422, 't'),
            Map.entry(0x03C4, 't'),
            Map.entry(0x03A4, 't'),
            Map.entry(0x0435, 'e'),
            Map.entry(0x0415, 'e'),
            Map.entry(0x0395, 'e'),
            Map.entry(0x03B5, 'e'),
            Map.entry(0x0455, 's'),
            Map.entry(0x0405, 's'));
    /** Signs drawn as a dash that are not dash punctuation (Pd, which all read as '-'), after NFKC. */
    private static final Set<Integer> DASHES = Set.of(
            0x2212, // minus sign
            0x02D7, // modifier letter minus
            0x2043, // hyphen bullet
            0x2796, // heavy minus
            0x2500, // box drawings light horizontal
            0x2501, 0x23AF, // horizontal line extension
            0x30FC, // katakana prolonged sound mark (NFKC folds the half-width one into it)
            0x4E00, // CJK "one"
            0x1173, // Hangul jungseong eu (NFKC folds the compatibility letter into it)
            0x06D4, // Arabic full stop
            0x2CBA, // Coptic capital dialect-P ni
            0x1428, // Canadian syllabics final short horizontal stroke
            0x31D0, // CJK stroke H
            0x3127, // Bopomofo letter i
            0x1680); // Ogham space mark, drawn as a line

    private AgentIds() {}

    /**
     * Why this text cannot be an agent id, or empty when it can: every rule, as a request's {@code
     * agent_id} is checked where it enters.
     */
    public static Optional<String> problem(String id) {
        return problem(id, true);
    }

    /**
     * Why this text cannot name an agent in a query ({@code /score/{agent_id}}): the rules that keep
     * an id safe in a URL, a log and a page, but not those against look-alikes (normalization form,
     * mixed scripts, invisible marks, reading as {@code test-}), so that an id an earlier version
     * took can still be read.
     */
    public static Optional<String> queryProblem(String id) {
        return problem(id, false);
    }

    private static Optional<String> problem(String id, boolean entering) {
        int length = id.codePointCount(0, id.length());
        if (length == 0) {
            return Optional.of("is empty");
        }
        if (length > MAX_CODE_POINTS) {
            return Optional.of("is longer than " + MAX_CODE_POINTS + " characters");
        }
        if (ScoredAgents.isPlaceholder(id)) {
            return Optional.of("is a placeholder, not an agent id");
        }
        if (id.equals(".") || id.equals("..")) {
            return Optional.of("is a path step, not an agent id");
        }
        if (Character.isWhitespace(id.codePointAt(0))
                || Character.isWhitespace(id.codePointBefore(id.length()))
                || Character.isSpaceChar(id.codePointAt(0))
                || Character.isSpaceChar(id.codePointBefore(id.length()))) {
            return Optional.of("starts or ends with a space");
        }
        boolean latin = false;
        boolean confusable = false;
        boolean ascii = true;
        boolean ignorable = false;
        int previous = -1;
        for (int i = 0; i < id.length(); ) {
            int c = id.codePointAt(i);
            i += Character.charCount(c);
            if (c < 0x80) { // nearly every id: decided without Unicode's tables
                if (c < 0x20 || c == 0x7F) {
                    return Optional.of("contains a control, invisible, unassigned or private-use character");
                }
                if (c == '/' || c == '\\' || c == '?' || c == '#') {
                    return Optional.of("contains / \\ ? or #, which would change a URL's path");
                }
                latin |= (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
                previous = c;
                continue;
            }
            ascii = false;
            if (isInvisible(c)) {
                return Optional.of("contains a control, invisible, unassigned or private-use character");
            }
            if (c == '/' || c == '\\' || c == '?' || c == '#') {
                return Optional.of("contains / \\ ? or #, which would change a URL's path");
            }
            ignorable |= isIgnorableMark(c) && !(isVariationSelector(c) && drawsAVariant(previous));
            previous = c;
            if (Character.isLetter(c)) {
                Character.UnicodeScript script = Character.UnicodeScript.of(c);
                latin |= script == Character.UnicodeScript.LATIN;
                confusable |= CONFUSABLE_WITH_LATIN.contains(script);
            }
        }
        if (!entering) {
            return Optional.empty();
        }
        if (ascii) {
            return asciiLookAlike(id);
        }
        if (ignorable) {
            return Optional.of("contains a character that shows nothing (a joiner, variation selector or filler)");
        }
        if (!Normalizer.isNormalized(id, Normalizer.Form.NFC)) {
            // Two spellings of one name (a precomposed letter, or a letter and its combining mark)
            // would be two agents that look the same on every page.
            return Optional.of("is not in Unicode Normalization Form C (precompose its letters: NFC)");
        }
        if (latin && confusable) {
            return Optional.of("mixes Latin letters with Cyrillic or Greek ones, which can look alike");
        }
        if (skeleton(id).startsWith(ScoredAgents.TEST_PREFIX) && !ScoredAgents.isTestAgent(id)) {
            return Optional.of(LOOKS_LIKE_TEST);
        }
        return Optional.empty();
    }

    private static final String LOOKS_LIKE_TEST = "looks like a " + ScoredAgents.TEST_PREFIX + " id but is not one";

    private static Optional<String> asciiLookAlike(String id) {
        boolean readsAsTest = id.regionMatches(true, 0, ScoredAgents.TEST_PREFIX, 0, ScoredAgents.TEST_PREFIX.length());
        return readsAsTest && !ScoredAgents.isTestAgent(id) ? Optional.of(LOOKS_LIKE_TEST) : Optional.empty();
    }

    /**
     * Unicode's default-ignorable marks and fillers that are not format characters (those are
     * invisible already): a grapheme joiner, variation selectors, Mongolian and Khmer vowel
     * inherents, Hangul fillers, and the blank Braille pattern. Drawn as nothing, they would make one
     * visible name many ids. A variation selector right after a symbol or a digit is taken: it
     * chooses how that symbol is drawn ({@code ❤️}, a keycap), as phone keyboards write emoji.
     */
    private static boolean isVariationSelector(int c) {
        return c == 0xFE0E || c == 0xFE0F;
    }

    /** A symbol or digit whose text or emoji form a variation selector chooses. */
    private static boolean drawsAVariant(int c) {
        int type = c < 0 ? -1 : Character.getType(c);
        return type == Character.OTHER_SYMBOL
                || type == Character.MATH_SYMBOL
                || type == Character.DECIMAL_DIGIT_NUMBER
                || c == '#'
                || c == '*';
    }

    static boolean isIgnorableMark(int c) {
        return c == 0x034F
                || c == 0x115F
                || c == 0x1160
                || c == 0x17B4
                || c == 0x17B5
                || (c >= 0x180B && c <= 0x180F)
                || c == 0x3164
                || (c >= 0xFE00 && c <= 0xFE0F)
                || c == 0xFFA0
                || (c >= 0xE0100 && c <= 0xE01EF)
                || c == 0x2800; // Braille pattern blank
    }

    /**
     * A control, format (bidi), separator, surrogate, unassigned or private-use character: one that
     * shows nothing or acts on what is around it, never part of an id and never to be printed as is.
     */
    public static boolean isInvisible(int codePoint) {
        int type = Character.getType(codePoint);
        return type == Character.CONTROL
                || type == Character.FORMAT
                || type == Character.SURROGATE
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR
                || type == Character.UNASSIGNED
                || type == Character.PRIVATE_USE;
    }

    /**
     * The start of the id as it reads (enough for "test-"): compatibility forms folded and letters
     * taken apart from their marks (NFKD: full width, mathematical, circled letters, long s; a t with
     * a mark reads as t), the marks dropped, look-alike letters replaced by the Latin ones they
     * resemble, then lower case, and every dash as '-'.
     */
    static String skeleton(String id) {
        // The whole id (200 code points at most): any number of marks may stand before "est-".
        String folded = Normalizer.normalize(id, Normalizer.Form.NFKD);
        StringBuilder out = new StringBuilder(ScoredAgents.TEST_PREFIX.length());
        for (int i = 0; i < folded.length() && out.length() < ScoredAgents.TEST_PREFIX.length(); ) {
            int c = folded.codePointAt(i);
            i += Character.charCount(c);
            int type = Character.getType(c);
            if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK) {
                continue;
            }
            Character lookAlike = LOOK_ALIKES.get(c);
            if (lookAlike != null) {
                out.append(lookAlike.charValue());
            } else if (type == Character.DASH_PUNCTUATION || DASHES.contains(c)) {
                out.append('-');
            } else {
                out.append(new String(Character.toChars(c)).toLowerCase(Locale.ROOT));
            }
        }
        return out.toString();
    }
}
