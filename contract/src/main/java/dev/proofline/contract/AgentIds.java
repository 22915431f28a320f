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
     * Letters that look like those of "test" once NFKC has folded the compatibility forms (full
     * width, mathematical, circled, long s): Cyrillic, Greek, small capitals, Cherokee and Lisu.
     */
    private static final Map<Integer, Character> LOOK_ALIKES = Map.ofEntries(
            Map.entry(0x1D1B, 't'), // small capital T
            Map.entry(0x1D07, 'e'), // small capital E
            Map.entry(0xA731, 's'), // small capital S
            Map.entry(0x13A2, 't'), // Cherokee
            Map.entry(0x13AC, 'e'),
            Map.entry(0x13DA, 's'),
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
    /** Signs drawn as a dash that are not dash punctuation (Pd, which all read as '-'). */
    private static final Set<Integer> DASHES = Set.of(
            0x2212, // minus sign
            0x02D7, // modifier letter minus
            0x2043, // hyphen bullet
            0x2796, // heavy minus
            0x2500, // box drawings light horizontal
            0x2501, 0x23AF, // horizontal line extension
            0x30FC, // katakana prolonged sound mark
            0xFF70, 0x4E00, // CJK "one"
            0x3161, // Hangul letter eu
            0x1173);

    private AgentIds() {}

    /** Why this text cannot be an agent id, or empty when it can. */
    public static Optional<String> problem(String id) {
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
                continue;
            }
            ascii = false;
            if (isInvisible(c)) {
                return Optional.of("contains a control, invisible, unassigned or private-use character");
            }
            if (c == '/' || c == '\\' || c == '?' || c == '#') {
                return Optional.of("contains / \\ ? or #, which would change a URL's path");
            }
            if (Character.isLetter(c)) {
                Character.UnicodeScript script = Character.UnicodeScript.of(c);
                latin |= script == Character.UnicodeScript.LATIN;
                confusable |= CONFUSABLE_WITH_LATIN.contains(script);
            }
        }
        if (!ascii && !Normalizer.isNormalized(id, Normalizer.Form.NFC)) {
            // Two spellings of one name (a precomposed letter, or a letter and its combining mark)
            // would be two agents that look the same on every page.
            return Optional.of("is not in Unicode Normalization Form C (precompose its letters: NFC)");
        }
        if (latin && confusable) {
            return Optional.of("mixes Latin letters with Cyrillic or Greek ones, which can look alike");
        }
        boolean readsAsTest = ascii
                ? id.regionMatches(true, 0, ScoredAgents.TEST_PREFIX, 0, ScoredAgents.TEST_PREFIX.length())
                : skeleton(id).startsWith(ScoredAgents.TEST_PREFIX);
        if (readsAsTest && !ScoredAgents.isTestAgent(id)) {
            return Optional.of("looks like a " + ScoredAgents.TEST_PREFIX + " id but is not one");
        }
        return Optional.empty();
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
     * The start of the id as it reads (enough for "test-"): compatibility forms folded (NFKC: full
     * width, mathematical, circled letters, long s), lower case, look-alike letters replaced by the
     * Latin ones they resemble and every dash by '-'.
     */
    static String skeleton(String id) {
        int end = id.offsetByCodePoints(
                0, Math.min(id.codePointCount(0, id.length()), 2 * ScoredAgents.TEST_PREFIX.length()));
        String folded =
                Normalizer.normalize(id.substring(0, end), Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder(ScoredAgents.TEST_PREFIX.length());
        for (int i = 0; i < folded.length() && out.length() < ScoredAgents.TEST_PREFIX.length(); ) {
            int c = folded.codePointAt(i);
            i += Character.charCount(c);
            if (Character.getType(c) == Character.DASH_PUNCTUATION || DASHES.contains(c)) {
                out.append('-');
            } else if (LOOK_ALIKES.containsKey(c)) {
                out.append(LOOK_ALIKES.get(c));
            } else {
                out.appendCodePoint(c);
            }
        }
        return out.toString();
    }
}
