package dev.proofline.engine;

import com.google.re2j.Pattern;
import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;

/**
 * Runs schema patterns ({@code pattern}, {@code patternProperties}, {@code format: "regex"}) with
 * ECMA-262 meaning on RE2/J, whose matching time is linear in the input, so no schema can hang a
 * processor with catastrophic backtracking: {@link EcmaScriptPatterns} translates each pattern
 * first. A pattern with no linear-time form (lookaround, backreferences) fails to compile, which
 * makes the schema an invalid request.
 */
final class Re2jRegularExpressions implements RegularExpressionFactory {
    static final Re2jRegularExpressions INSTANCE = new Re2jRegularExpressions();

    @Override
    public RegularExpression getRegularExpression(String regex) {
        Pattern pattern = compile(regex);
        int programSize = programSize(pattern);
        // JSON Schema patterns are not anchored: a match anywhere in the string counts.
        return input -> {
            WorkBudget.spendOnPattern(input.length(), programSize);
            return pattern.matcher(input).find();
        };
    }

    /**
     * The instructions of the pattern's compiled program. RE2/J matches with an NFA that may step
     * every instruction for every input character, so a 20,000-instruction program over a string of
     * 100,000 characters takes seconds however linear it is: the work budget must see the size. RE2/J
     * does not publish it; it is read from its fields (a test pins this to the version shipped), and
     * if they are ever gone, estimated from the pattern's length, generously.
     */
    static int programSize(Pattern pattern) {
        try {
            Object re2 = field(Pattern.class, "re2").get(pattern);
            Object prog = field(re2.getClass(), "prog").get(re2);
            return Math.max(1, (Integer) field(prog.getClass(), "instSize").get(prog));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return ESTIMATED_INSTRUCTIONS_PER_CHARACTER
                    * Math.max(1, pattern.pattern().length());
        }
    }

    /** What a pattern's length says of its program when RE2/J cannot be asked: counted repeats expand. */
    static final int ESTIMATED_INSTRUCTIONS_PER_CHARACTER = 64;

    private static java.lang.reflect.Field field(Class<?> owner, String name) throws NoSuchFieldException {
        java.lang.reflect.Field field = owner.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }

    /** The RE2 pattern with the ECMA-262 meaning of {@code regex}; EcmaScriptPatterns.Unsupported if none. */
    static Pattern compile(String regex) {
        String translated = EcmaScriptPatterns.toRe2(regex);
        try {
            return Pattern.compile(translated);
        } catch (com.google.re2j.PatternSyntaxException e) {
            throw new EcmaScriptPatterns.Unsupported(
                    "is not a valid ECMA-262 regular expression: " + e.getDescription(), false);
        }
    }
}
