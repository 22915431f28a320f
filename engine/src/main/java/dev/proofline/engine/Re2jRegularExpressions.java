package dev.proofline.engine;

import com.google.re2j.Pattern;
import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;

/**
 * Runs schema {@code pattern}s on RE2/J, whose matching time is linear in the input, so no schema
 * can hang a processor with catastrophic backtracking. RE2 refuses lookaround and backreferences;
 * a schema that uses them fails to compile, which makes it an invalid request.
 */
final class Re2jRegularExpressions implements RegularExpressionFactory {
    static final Re2jRegularExpressions INSTANCE = new Re2jRegularExpressions();

    @Override
    public RegularExpression getRegularExpression(String regex) {
        Pattern pattern = Pattern.compile(regex);
        // JSON Schema patterns are not anchored: a match anywhere in the string counts.
        return input -> pattern.matcher(input).find();
    }
}
