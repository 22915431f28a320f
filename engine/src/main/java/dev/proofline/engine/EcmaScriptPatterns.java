package dev.proofline.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Translates an ECMA-262 regular expression (what JSON Schema's {@code pattern},
 * {@code patternProperties} and {@code format: "regex"} mean) into RE2 syntax with the same meaning,
 * so that it runs on RE2/J in linear time. Where the two dialects differ, ECMA-262 wins:
 *
 * <ul>
 *   <li>{@code \s} and {@code \S} are ECMA-262's WhiteSpace and LineTerminator (NBSP, BOM, every
 *       Unicode space separator, U+2028, U+2029), not RE2's six ASCII characters;
 *   <li>{@code .} stops at every line terminator ({@code \n}, {@code \r}, U+2028, U+2029);
 *   <li>Unicode properties take ECMA-262's names: long General_Category names and aliases
 *       ({@code \p{Letter}}, {@code \p{digit}}), {@code gc=}, {@code Script=}/{@code sc=}, and the
 *       binary properties {@code Any}, {@code ASCII}, {@code Assigned} (and, as RE2 takes them, lone
 *       script names such as {@code \p{Greek}});
 *   <li>{@code \cX} control escapes, four-digit and braced Unicode escapes (surrogate pairs joined),
 *       {@code \0}, {@code \v}, {@code [\b]}, {@code []} (matches nothing) and {@code [^]}
 *       (anything);
 *   <li>named groups {@code (?<name>...)} become RE2's {@code (?P<name>...)}.
 * </ul>
 *
 * <p>Escapes ECMA-262 (in its Unicode mode, as JSON Schema's test suite reads it) does not define,
 * such as {@code \a} or RE2's {@code \z}, are invalid. Lookaround and backreferences have no
 * linear-time implementation; a pattern using them is refused and the reason says exactly that.
 */
final class EcmaScriptPatterns {
    /** A pattern that cannot run on RE2; {@link #getMessage()} says why, for a caller to read. */
    static final class Unsupported extends IllegalArgumentException {
        private final boolean nonLinear;

        Unsupported(String reason, boolean nonLinear) {
            super(reason);
            this.nonLinear = nonLinear;
        }

        /** Lookaround or a backreference: valid ECMA-262, but not runnable in linear time. */
        boolean nonLinear() {
            return nonLinear;
        }
    }

    /** ECMA-262 WhiteSpace and LineTerminator, as the body of an RE2 character class. */
    static final String WHITESPACE = "\\t\\n\\x{0B}\\f\\r\\x{FEFF}\\p{Zs}\\x{2028}\\x{2029}";

    /** The same white space, one code point at a time (\p{Zs} written out), for subtracting from. */
    private static final List<Integer> WHITESPACE_CODE_POINTS = java.util.stream.IntStream.concat(
                    java.util.stream.IntStream.of(
                            0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
                            0xFEFF),
                    java.util.stream.IntStream.rangeClosed(0x2000, 0x200A))
            .boxed()
            .toList();

    private static final String LINE_TERMINATORS = "\\n\\r\\x{2028}\\x{2029}";
    private static final String EVERYTHING = "\\x{0}-\\x{10FFFF}";
    private static final String SYNTAX_CHARACTERS = "^$\\.*+?()[]{}|/";

    /** Deeper nesting overflows RE2/J's recursive parser (a JVM error no catch expects). */
    static final int MAX_DEPTH = 500;
    /** RE2's own limit on one counted repetition, and on the product of nested ones (a{1000}{1000} is a million). */
    static final int MAX_REPEAT = 1_000;
    /** All counted repetitions of one pattern together: RE2/J compiles each copy, with no limit of its own. */
    static final int MAX_REPEAT_TOTAL = 20_000;

    /** Everything in ECMA-262's General_Category C (Other) is outside these. */
    private static final String NOT_OTHER = "\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}\\p{Z}";

    private static final com.google.re2j.Pattern COUNTED =
            com.google.re2j.Pattern.compile("([0-9]{1,9})(,([0-9]{0,9}))?}");

    /** General_Category values by every name ECMA-262 accepts (Unicode's PropertyValueAliases). */
    private static final Map<String, String> GENERAL_CATEGORIES = generalCategories();

    /** Binary properties RE2 can express, as class bodies. */
    private static final Map<String, String> BINARY_PROPERTIES = Map.of(
            "Any", EVERYTHING,
            "ASCII", "\\x{0}-\\x{7F}",
            "Assigned", "\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}\\p{Z}\\p{Cc}\\p{Cf}\\p{Cs}\\p{Co}");

    private EcmaScriptPatterns() {}

    /** The RE2 form of an ECMA-262 pattern; {@link Unsupported} when there is none. */
    static String toRe2(String pattern) {
        return new Translation(pattern, false).translate();
    }

    /**
     * An RE2 pattern that compiles exactly when {@code pattern} is valid ECMA-262 syntax: lookaround
     * becomes a plain group and a backreference nothing, so only their syntax is checked. For
     * {@code format: "regex"}, which asks whether a string is a regular expression, not whether
     * Proofline can run it.
     */
    static String syntaxOnly(String pattern) {
        return new Translation(pattern, true).translate();
    }

    /**
     * What one escape or class item stands for: {@code text} is usable inside and outside a class;
     * a {@code set} is a class body, {@code negated} when it means every character but those.
     */
    private record Atom(String text, String set, boolean negated) {
        static Atom text(String text) {
            return new Atom(text, null, false);
        }

        static Atom set(String body, boolean negated) {
            return new Atom(null, body, negated);
        }

        String outsideClass() {
            return text != null ? text : (negated ? "[^" : "[") + set + "]";
        }
    }

    private static final class Translation {
        private final String pattern;
        private final boolean syntaxOnly;
        private final StringBuilder out = new StringBuilder();
        private int at;
        /** Per open group, the largest product of counted repetitions inside it; the top is the pattern. */
        private final java.util.ArrayDeque<Long> groups = new java.util.ArrayDeque<>(List.of(1L));
        /** What the last atom multiplies a following {n} by: 1, or a closed group's inner product. */
        private long lastAtom = 1;

        private long repeatTotal;

        Translation(String pattern, boolean syntaxOnly) {
            this.pattern = pattern;
            this.syntaxOnly = syntaxOnly;
        }

        String translate() {
            while (at < pattern.length()) {
                char c = pattern.charAt(at++);
                long weight = 1;
                switch (c) {
                    case '\\' -> out.append(escape(false).outsideClass());
                    case '[' -> characterClass();
                    case '(' -> {
                        group();
                        if (groups.size() > MAX_DEPTH) {
                            throw new Unsupported(
                                    "nests groups more than " + MAX_DEPTH + " deep, more than Proofline runs", false);
                        }
                        groups.push(1L);
                    }
                    case ')' -> {
                        if (groups.size() == 1) {
                            throw invalid("a ')' closes no group");
                        }
                        weight = groups.pop();
                        // What repeats inside a group repeats inside its parent too, quantified or not.
                        groups.push(Math.max(groups.pop(), weight));
                        out.append(c);
                    }
                    case '{' -> {
                        if (counted()) {
                            weight = 0; // a quantifier is not an atom
                        } else {
                            out.append("\\{");
                        }
                    }
                    case '.' -> out.append("[^").append(LINE_TERMINATORS).append(']');
                    default -> out.append(c);
                }
                if (c != '*' && c != '+' && c != '?' && weight != 0) {
                    lastAtom = weight;
                }
            }
            if (groups.size() != 1) {
                throw invalid("a group is not closed with ')'");
            }
            return out.toString();
        }

        /**
         * A counted repetition {n}, {n,} or {n,m} at {@code at} (just past its brace), copied out and
         * weighed against the limits; false (nothing consumed) when the brace is a literal.
         */
        private boolean counted() {
            com.google.re2j.Matcher quantifier =
                    COUNTED.matcher(pattern.substring(at, Math.min(pattern.length(), at + 24)));
            if (!quantifier.lookingAt()) {
                return false;
            }
            long min = Long.parseLong(quantifier.group(1));
            String max = quantifier.group(3);
            long count = max == null || max.isEmpty() ? min : Long.parseLong(max);
            if (max != null && !max.isEmpty() && count < min) {
                throw invalid("a counted repetition {n,m} has m smaller than n");
            }
            long product = Math.max(count, 1) * lastAtom;
            repeatTotal += product;
            if (count > MAX_REPEAT || product > MAX_REPEAT || repeatTotal > MAX_REPEAT_TOTAL) {
                throw new Unsupported(
                        "repeats more than Proofline runs: at most " + MAX_REPEAT + " for one counted repetition,"
                                + " nested ones multiplied, and " + MAX_REPEAT_TOTAL + " in all",
                        false);
            }
            groups.push(Math.max(groups.pop(), product));
            out.append('{').append(quantifier.group());
            at += quantifier.group().length();
            return true;
        }

        private void group() {
            out.append('(');
            if (!pattern.startsWith("?", at)) {
                return;
            }
            if (pattern.startsWith("?:", at)) {
                out.append("?:");
                at += 2;
            } else if (pattern.startsWith("?=", at) || pattern.startsWith("?!", at)) {
                nonLinear("uses lookahead, which cannot run in linear time");
                out.append("?:");
                at += 2;
            } else if (pattern.startsWith("?<=", at) || pattern.startsWith("?<!", at)) {
                nonLinear("uses lookbehind, which cannot run in linear time");
                out.append("?:");
                at += 3;
            } else if (pattern.startsWith("?<", at)) {
                out.append("?P<");
                at += 2;
            } else {
                throw invalid("'(?' must be followed by ':', '=', '!', '<=', '<!' or '<name>'");
            }
        }

        /** Refuses what cannot run in linear time, unless only the syntax is being checked. */
        private void nonLinear(String reason) {
            if (!syntaxOnly) {
                throw new Unsupported(reason, true);
            }
        }

        private void characterClass() {
            boolean negatedClass = pattern.startsWith("^", at);
            if (negatedClass) {
                at++;
            }
            if (pattern.startsWith("]", at)) { // [] matches nothing, [^] anything
                at++;
                out.append(negatedClass ? "[" : "[^").append(EVERYTHING).append(']');
                return;
            }
            StringBuilder body = new StringBuilder();
            List<String> negatedSets = new ArrayList<>();
            List<Integer> singles = new ArrayList<>(); // the class's single characters, while it has no ranges or sets
            boolean onlySingles = true;
            boolean afterSet = false; // the previous item was a class escape (\d, \s, \p{...})
            boolean first = true;
            while (true) {
                if (at >= pattern.length()) {
                    throw invalid("a character class is not closed with ']'");
                }
                char c = pattern.charAt(at++);
                if (c == ']') {
                    break;
                }
                boolean wasFirst = first;
                first = false;
                if (c == '-' && !wasFirst && !pattern.startsWith("]", at)) {
                    if (afterSet || startsClassEscape(at)) {
                        throw invalid("a class escape such as \\d or \\s cannot be an end of a range");
                    }
                    onlySingles = false;
                    body.append(c);
                    continue;
                }
                if (c == '\\') {
                    afterSet = startsClassEscape(at - 1);
                    Atom atom = escape(true);
                    Integer single = afterSet ? null : singleCodePoint(atom.text());
                    if (single != null) {
                        singles.add(single);
                    } else if (!(atom.set() != null && atom.negated())) {
                        onlySingles = false; // a negated set is subtracted from, never listed
                    }
                    if (atom.text() != null) {
                        body.append(atom.text());
                    } else if (!atom.negated()) {
                        body.append(atom.set());
                    } else {
                        negatedSets.add(atom.set());
                    }
                } else if (c == '[') {
                    afterSet = false;
                    singles.add((int) c);
                    body.append("\\["); // RE2 would read [[:alpha:]] as a POSIX class
                } else {
                    afterSet = false;
                    singles.add((int) c);
                    body.append(c);
                }
            }
            if (negatedSets.isEmpty()) {
                out.append(negatedClass ? "[^" : "[").append(body).append(']');
            } else if (!negatedClass) {
                // [a\S]: a, or anything but whitespace. RE2 classes cannot nest a complement.
                List<String> alternatives = new ArrayList<>();
                if (body.length() > 0) {
                    alternatives.add("[" + body + "]");
                }
                negatedSets.forEach(set -> alternatives.add("[^" + set + "]"));
                out.append("(?:").append(String.join("|", alternatives)).append(')');
            } else if (body.length() == 0 && negatedSets.size() == 1) {
                out.append('[').append(negatedSets.get(0)).append(']'); // [^\S] is \s
            } else if (negatedSets.equals(List.of(WHITESPACE)) && onlySingles) {
                out.append(whitespaceExcept(singles)); // [^\S\n]: white space but a newline
            } else if (syntaxOnly) {
                out.append("(?:)");
            } else {
                throw new Unsupported(
                        "holds a negated class mixing \\S, \\P{...} or the like with other characters, which has no RE2"
                                + " form",
                        false);
            }
        }

        /** Whether a class escape (\d \D \w \W \s \S \p \P) starts at {@code index}. */
        private boolean startsClassEscape(int index) {
            return index + 1 < pattern.length()
                    && pattern.charAt(index) == '\\'
                    && "dDwWsSpP".indexOf(pattern.charAt(index + 1)) >= 0;
        }

        /** The one character an escape's RE2 text stands for, or null (a set, an assertion). */
        private static Integer singleCodePoint(String text) {
            return switch (text) {
                case "\\n" -> (int) '\n';
                case "\\t" -> (int) '\t';
                case "\\r" -> (int) '\r';
                case "\\f" -> (int) '\f';
                default -> {
                    if (text.startsWith("\\x{") && text.endsWith("}")) {
                        yield Integer.parseInt(text.substring(3, text.length() - 1), 16);
                    }
                    yield text.length() == 2 && text.charAt(0) == '\\' ? (int) text.charAt(1) : null;
                }
            };
        }

        /** ECMA-262 white space without the given characters, as an RE2 class. */
        private static String whitespaceExcept(List<Integer> excluded) {
            StringBuilder kept = new StringBuilder();
            WHITESPACE_CODE_POINTS.stream().filter(c -> !excluded.contains(c)).forEach(c -> kept.append(codePoint(c)));
            return kept.length() == 0 ? "[^" + EVERYTHING + "]" : "[" + kept + "]";
        }

        private Atom escape(boolean inClass) {
            if (at >= pattern.length()) {
                throw invalid("it ends with a lone backslash");
            }
            char c = pattern.charAt(at++);
            return switch (c) {
                case 'd', 'D', 'w', 'W', 't', 'n', 'r', 'f' -> Atom.text("\\" + c);
                case 's' -> Atom.set(WHITESPACE, false);
                case 'S' -> Atom.set(WHITESPACE, true);
                case 'v' -> Atom.text("\\x{0B}");
                case 'b' -> Atom.text(inClass ? "\\x{08}" : "\\b");
                case 'B' -> {
                    if (inClass) {
                        throw invalid("\\B cannot stand in a character class");
                    }
                    yield Atom.text("\\B");
                }
                case 'c' -> control();
                case 'x' -> Atom.text(codePoint(hex(2)));
                case 'u' -> unicodeEscape();
                case '0' -> {
                    if (at < pattern.length() && Character.isDigit(pattern.charAt(at))) {
                        throw invalid("octal escapes such as \\01 are not ECMA-262 (in Unicode mode)");
                    }
                    yield Atom.text("\\x{0}");
                }
                case '1', '2', '3', '4', '5', '6', '7', '8', '9' -> {
                    nonLinear("uses a backreference, which cannot run in linear time");
                    while (at < pattern.length() && Character.isDigit(pattern.charAt(at))) {
                        at++;
                    }
                    yield Atom.text("");
                }
                case 'k' -> {
                    nonLinear("uses a named backreference, which cannot run in linear time");
                    int end = pattern.indexOf('>', at);
                    if (!pattern.startsWith("<", at) || end < 0) {
                        throw invalid("\\k must be followed by <name>");
                    }
                    at = end + 1;
                    yield Atom.text("");
                }
                case 'p', 'P' -> property(c == 'P', inClass);
                case '-' -> {
                    if (!inClass) {
                        throw invalid("\\- is only an escape inside a character class");
                    }
                    yield Atom.text("\\-");
                }
                default -> {
                    if (SYNTAX_CHARACTERS.indexOf(c) < 0) {
                        throw invalid("\\" + c + " is not an ECMA-262 escape");
                    }
                    yield Atom.text(c == '/' ? "/" : "\\" + c);
                }
            };
        }

        private Atom control() {
            if (at < pattern.length() && isAsciiLetter(pattern.charAt(at))) {
                return Atom.text(codePoint(pattern.charAt(at++) % 32));
            }
            throw invalid("\\c must be followed by a letter A-Z or a-z");
        }

        private Atom unicodeEscape() {
            if (pattern.startsWith("{", at)) {
                int end = pattern.indexOf('}', at);
                if (end < 0) {
                    throw invalid("\\u{ is not closed with '}'");
                }
                String digits = pattern.substring(at + 1, end);
                at = end + 1;
                if (digits.isEmpty() || digits.length() > 6 || !digits.chars().allMatch(d -> isAsciiHex((char) d))) {
                    throw invalid("\\u{...} must hold one to six hexadecimal digits");
                }
                int value;
                try {
                    value = Integer.parseInt(digits, 16);
                } catch (NumberFormatException e) {
                    throw invalid("\\u{...} must hold hexadecimal digits");
                }
                if (digits.isEmpty() || value > 0x10FFFF) {
                    throw invalid("\\u{...} must name a code point up to 10FFFF");
                }
                return Atom.text(codePoint(value));
            }
            int unit = hex(4);
            // A surrogate pair written as two escapes is one code point, as in ECMA-262's Unicode mode.
            if (Character.isHighSurrogate((char) unit)
                    && pattern.startsWith("\\u", at)
                    && at + 6 <= pattern.length()
                    && pattern.substring(at + 2, at + 6).chars().allMatch(d -> isAsciiHex((char) d))) {
                int saved = at;
                at += 2;
                int low = hex(4);
                if (Character.isLowSurrogate((char) low)) {
                    return Atom.text(codePoint(Character.toCodePoint((char) unit, (char) low)));
                }
                at = saved;
            }
            return Atom.text(codePoint(unit));
        }

        private Atom property(boolean negated, boolean inClass) {
            if (!pattern.startsWith("{", at)) {
                throw invalid("\\p and \\P must be followed by {name}");
            }
            int end = pattern.indexOf('}', at);
            if (end < 0) {
                throw invalid("\\p{ is not closed with '}'");
            }
            String name = pattern.substring(at + 1, end);
            at = end + 1;
            String category = generalCategoryOf(name);
            // RE2's C leaves out unassigned code points, and it has no Cn: both as complements.
            if ("C".equals(category)) {
                return Atom.set(NOT_OTHER, !negated);
            }
            if ("Cn".equals(category)) {
                return Atom.set(BINARY_PROPERTIES.get("Assigned"), !negated);
            }
            String body = propertySet(name);
            if (body.startsWith("\\p{") && body.indexOf('\\', 1) < 0) {
                // One RE2 property: \P{...} works inside and outside classes.
                return Atom.text(negated ? "\\P" + body.substring(2) : body);
            }
            return Atom.set(body, negated);
        }

        /** The General_Category short name {@code \p{name}} asks for, or null when it asks for something else. */
        private static String generalCategoryOf(String name) {
            if (name.startsWith("General_Category=")) {
                return GENERAL_CATEGORIES.get(name.substring("General_Category=".length()));
            }
            if (name.startsWith("gc=")) {
                return GENERAL_CATEGORIES.get(name.substring(3));
            }
            return GENERAL_CATEGORIES.get(name);
        }

        /** The class body of \p{name}, or Unsupported. */
        private String propertySet(String name) {
            int equals = name.indexOf('=');
            if (equals >= 0) {
                String key = name.substring(0, equals);
                String value = name.substring(equals + 1);
                if (key.equals("General_Category") || key.equals("gc")) {
                    return generalCategory(value, name);
                }
                // Script_Extensions (scx) differs from Script for shared characters; RE2 has only Script.
                if (key.equals("Script") || key.equals("sc")) {
                    return script(value, name);
                }
                throw unsupported(name);
            }
            if (GENERAL_CATEGORIES.containsKey(name)) {
                return generalCategory(name, name);
            }
            String binary = BINARY_PROPERTIES.get(name);
            if (binary != null) {
                return binary;
            }
            // ECMA-262 wants Script=Greek; a lone script name, as RE2 (and Proofline before) took it, still works.
            return script(name, name);
        }

        private String generalCategory(String value, String name) {
            String category = GENERAL_CATEGORIES.get(value);
            if (category == null) {
                throw unsupported(name);
            }
            return category.equals("LC") ? "\\p{Lu}\\p{Ll}\\p{Lt}" : "\\p{" + category + "}";
        }

        private String script(String value, String name) {
            if (!value.matches("[A-Za-z][A-Za-z_]*") || value.equals("Any")) {
                throw unsupported(name);
            }
            // RE2/J knows scripts by their long names (Greek, Latin, Han...), as ECMA-262 writes them.
            try {
                com.google.re2j.Pattern.compile("\\p{" + value + "}");
            } catch (RuntimeException e) {
                throw unsupported(name);
            }
            if (GENERAL_CATEGORIES.containsKey(value)) {
                throw unsupported(name); // a category name is not a script
            }
            return "\\p{" + value + "}";
        }

        private int hex(int digits) {
            if (at + digits > pattern.length()) {
                throw invalid("a \\x or \\u escape needs " + digits + " hexadecimal digits");
            }
            String text = pattern.substring(at, at + digits);
            for (int i = 0; i < digits; i++) {
                if (!isAsciiHex(text.charAt(i))) {
                    throw invalid("a \\x or \\u escape needs " + digits + " hexadecimal digits");
                }
            }
            at += digits;
            return Integer.parseInt(text, 16);
        }

        private static String codePoint(int value) {
            return "\\x{" + Integer.toHexString(value).toUpperCase() + "}";
        }

        private static boolean isAsciiHex(char c) {
            return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        }

        private static boolean isAsciiLetter(char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        }

        private static Unsupported invalid(String why) {
            return new Unsupported("is not a valid ECMA-262 regular expression: " + why, false);
        }

        private static Unsupported unsupported(String name) {
            return new Unsupported(
                    "uses the Unicode property \\p{" + name
                            + "}, which Proofline cannot run (supported: General_Category"
                            + " names such as Letter or Lu, Script=Name, Any, ASCII, Assigned)",
                    false);
        }
    }

    private static Map<String, String> generalCategories() {
        String[][] aliases = {
            {"C", "Other"},
            {"Cc", "Control", "cntrl"},
            {"Cf", "Format"},
            {"Cn", "Unassigned"},
            {"Co", "Private_Use"},
            {"Cs", "Surrogate"},
            {"L", "Letter"},
            {"LC", "Cased_Letter"},
            {"Ll", "Lowercase_Letter"},
            {"Lm", "Modifier_Letter"},
            {"Lo", "Other_Letter"},
            {"Lt", "Titlecase_Letter"},
            {"Lu", "Uppercase_Letter"},
            {"M", "Mark", "Combining_Mark"},
            {"Mc", "Spacing_Mark"},
            {"Me", "Enclosing_Mark"},
            {"Mn", "Nonspacing_Mark"},
            {"N", "Number"},
            {"Nd", "Decimal_Number", "digit"},
            {"Nl", "Letter_Number"},
            {"No", "Other_Number"},
            {"P", "Punctuation", "punct"},
            {"Pc", "Connector_Punctuation"},
            {"Pd", "Dash_Punctuation"},
            {"Pe", "Close_Punctuation"},
            {"Pf", "Final_Punctuation"},
            {"Pi", "Initial_Punctuation"},
            {"Po", "Other_Punctuation"},
            {"Ps", "Open_Punctuation"},
            {"S", "Symbol"},
            {"Sc", "Currency_Symbol"},
            {"Sk", "Modifier_Symbol"},
            {"Sm", "Math_Symbol"},
            {"So", "Other_Symbol"},
            {"Z", "Separator"},
            {"Zl", "Line_Separator"},
            {"Zp", "Paragraph_Separator"},
            {"Zs", "Space_Separator"}
        };
        java.util.HashMap<String, String> byName = new java.util.HashMap<>();
        for (String[] names : aliases) {
            for (String name : names) {
                byName.put(name, names[0]);
            }
        }
        return Map.copyOf(byName);
    }
}
