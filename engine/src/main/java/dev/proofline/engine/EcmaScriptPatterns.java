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
 *       binary properties {@code Any}, {@code ASCII}, {@code Assigned};
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

    private static final String LINE_TERMINATORS = "\\n\\r\\x{2028}\\x{2029}";
    private static final String EVERYTHING = "\\x{0}-\\x{10FFFF}";
    private static final String SYNTAX_CHARACTERS = "^$\\.*+?()[]{}|/";

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

        Translation(String pattern, boolean syntaxOnly) {
            this.pattern = pattern;
            this.syntaxOnly = syntaxOnly;
        }

        String translate() {
            while (at < pattern.length()) {
                char c = pattern.charAt(at++);
                switch (c) {
                    case '\\' -> out.append(escape(false).outsideClass());
                    case '[' -> characterClass();
                    case '(' -> group();
                    case '.' -> out.append("[^").append(LINE_TERMINATORS).append(']');
                    default -> out.append(c);
                }
            }
            return out.toString();
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
            while (true) {
                if (at >= pattern.length()) {
                    throw invalid("a character class is not closed with ']'");
                }
                char c = pattern.charAt(at++);
                if (c == ']') {
                    break;
                }
                if (c == '\\') {
                    Atom atom = escape(true);
                    if (atom.text() != null) {
                        body.append(atom.text());
                    } else if (!atom.negated()) {
                        body.append(atom.set());
                    } else {
                        negatedSets.add(atom.set());
                    }
                } else if (c == '[') {
                    body.append("\\["); // RE2 would read [[:alpha:]] as a POSIX class
                } else {
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
            } else {
                throw invalid("a negated class that also holds \\S, \\P{...} or the like has no RE2 form");
            }
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
            if (Character.isHighSurrogate((char) unit) && pattern.startsWith("\\u", at)) {
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
            String body = propertySet(name);
            if (body.startsWith("\\p{") && body.indexOf('\\', 1) < 0) {
                // One RE2 property: \P{...} works inside and outside classes.
                return Atom.text(negated ? "\\P" + body.substring(2) : body);
            }
            return Atom.set(body, negated);
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
                if (key.equals("Script") || key.equals("sc") || key.equals("Script_Extensions") || key.equals("scx")) {
                    return script(value, name);
                }
                throw unsupported(name);
            }
            if (GENERAL_CATEGORIES.containsKey(name)) {
                return generalCategory(name, name);
            }
            String binary = BINARY_PROPERTIES.get(name);
            if (binary == null) {
                throw unsupported(name);
            }
            return binary;
        }

        private String generalCategory(String value, String name) {
            String category = GENERAL_CATEGORIES.get(value);
            if (category == null) {
                throw unsupported(name);
            }
            return category.equals("LC") ? "\\p{Lu}\\p{Ll}\\p{Lt}" : "\\p{" + category + "}";
        }

        private String script(String value, String name) {
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
                if (Character.digit(text.charAt(i), 16) < 0) {
                    throw invalid("a \\x or \\u escape needs " + digits + " hexadecimal digits");
                }
            }
            at += digits;
            return Integer.parseInt(text, 16);
        }

        private static String codePoint(int value) {
            return "\\x{" + Integer.toHexString(value).toUpperCase() + "}";
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
