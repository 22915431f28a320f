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
        // JSON Schema patterns are not anchored: a match anywhere in the string counts.
        return input -> pattern.matcher(input).find();
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
