package dev.proofline.contract;

import java.util.EnumSet;
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
    /** Cyrillic and Greek letters that look like the letters of "test". */
    private static final Map<Integer, Character> LOOK_ALIKES = Map.ofEntries(
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
        if (latin && confusable) {
            return Optional.of("mixes Latin letters with Cyrillic or Greek ones, which can look alike");
        }
        if (!ScoredAgents.isTestAgent(id) && skeleton(id).startsWith(ScoredAgents.TEST_PREFIX)) {
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

    /** The id with look-alike letters replaced by the Latin ones they resemble (enough for "test-"). */
    private static String skeleton(String id) {
        StringBuilder out = new StringBuilder(ScoredAgents.TEST_PREFIX.length());
        for (int i = 0, taken = 0; i < id.length() && taken < ScoredAgents.TEST_PREFIX.length(); taken++) {
            int c = id.codePointAt(i);
            i += Character.charCount(c);
            out.append(LOOK_ALIKES.getOrDefault(c, (char) Character.toLowerCase(c)));
        }
        return out.toString();
    }
}
