package dev.proofline.engine;

import com.google.re2j.Pattern;
import com.networknt.schema.ExecutionContext;
import com.networknt.schema.SchemaContext;
import com.networknt.schema.format.Format;
import com.networknt.schema.format.Formats;
import com.networknt.schema.format.IdnHostnameFormat;
import com.networknt.schema.format.IriFormat;
import com.networknt.schema.format.IriReferenceFormat;
import com.networknt.schema.format.UriFormat;
import com.networknt.schema.format.UriReferenceFormat;
import com.networknt.schema.utils.RFC5892;
import java.util.List;
import java.util.Locale;

/**
 * The formats whose library checks are looser than their RFCs, replaced with ones that follow the
 * RFCs ({@code docs/request.md} lists what each accepts). The library's own checks stay for every
 * other format. Fixed patterns here run on RE2/J, so no value can make a check backtrack.
 */
final class StrictFormats {
    private StrictFormats() {}

    /** Longer values fail every format: no date, address or name is that long, and it bounds a check's work. */
    static final int MAX_FORMATTED_LENGTH = 8_192;

    /**
     * Every format a dialect knows: the strict ones below in place of the library's, the library's
     * own for the rest, each refusing values over {@link #MAX_FORMATTED_LENGTH} characters before it
     * runs (some library checks use backtracking regular expressions).
     */
    static List<Format> all() {
        List<Format> strict = List.of(
                new Hostname(),
                new IdnHostname(),
                new Duration(),
                new Regex(),
                new WithAuthority(new UriFormat()),
                new WithAuthority(new UriReferenceFormat()),
                new WithAuthority(new IriFormat()),
                new WithAuthority(new IriReferenceFormat()),
                new UriTemplate(),
                new Re2Format("json-pointer", "^(?:/(?:[^/~]|~[01])*)*$"),
                new Re2Format("relative-json-pointer", "^(?:0|[1-9][0-9]*)(?:#|(?:/(?:[^/~]|~[01])*)*)$"));
        java.util.Set<String> replaced =
                strict.stream().map(Format::getName).collect(java.util.stream.Collectors.toSet());
        return java.util.stream.Stream.concat(
                        strict.stream(), Formats.DEFAULT.stream().filter(f -> !replaced.contains(f.getName())))
                .<Format>map(f -> new Bounded(f, f.getName().endsWith("email") ? MAX_EMAIL : MAX_FORMATTED_LENGTH))
                .toList();
    }

    /** RFC 5321's limits (64 for the local part, 255 for the domain) with room for quoting. */
    private static final int MAX_EMAIL = 320;

    /** A format that fails over-long values without running its check. */
    private record Bounded(Format check, int maxLength) implements Format {
        @Override
        public String getName() {
            return check.getName();
        }

        @Override
        public String getMessageKey() {
            return check.getMessageKey();
        }

        @Override
        public boolean matches(ExecutionContext context, SchemaContext schemaContext, String value) {
            return value.length() <= maxLength && check.matches(context, schemaContext, value);
        }
    }

    /** The longest host name DNS can carry, in its presentation form. */
    private static final int MAX_HOSTNAME = 253;

    private static final Pattern LDH_LABEL = Pattern.compile("^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$");

    /**
     * RFC 1123 host names, whose A-labels ({@code xn--...}, RFC 5890) must decode to a valid
     * IDNA2008 U-label: invalid Punycode, a label beginning with a combining mark or breaking
     * RFC 5892's contextual rules fails.
     */
    static final class Hostname implements Format {
        @Override
        public String getName() {
            return "hostname";
        }

        @Override
        public boolean matches(ExecutionContext context, String value) {
            if (value.isEmpty() || value.length() > MAX_HOSTNAME) {
                return false;
            }
            for (String label : value.split("\\.", -1)) {
                if (!LDH_LABEL.matcher(label).matches() || !validALabel(label)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Whether a label is not an A-label, or is one that decodes to a valid U-label. */
    static boolean validALabel(String label) {
        if (label.length() < 4 || label.charAt(2) != '-' || label.charAt(3) != '-') {
            return true;
        }
        if (!label.substring(0, 2).toLowerCase(Locale.ROOT).equals("xn")) {
            return false; // "--" in the 3rd and 4th positions is reserved for such prefixes (RFC 5891 4.2.3.1)
        }
        return Punycode.decode(label.substring(4))
                .filter(uLabel -> !uLabel.chars().allMatch(c -> c < 0x80)) // an A-label encodes something
                .filter(uLabel -> RFC5892.isValid(uLabel) && BidiRule.allows(List.of(uLabel)))
                .isPresent();
    }

    /**
     * Internationalized host names (RFC 5890-5893): the library's IDNA2008 character and context
     * rules, plus the overall length, no trailing separator, and the Bidi rule of RFC 5893 across
     * the whole name.
     */
    static final class IdnHostname implements Format {
        private static final IdnHostnameFormat LIBRARY = new IdnHostnameFormat();

        @Override
        public String getName() {
            return "idn-hostname";
        }

        @Override
        public boolean matches(ExecutionContext context, String value) {
            if (value.isEmpty() || value.codePointCount(0, value.length()) > MAX_HOSTNAME) {
                return false;
            }
            List<String> labels = List.of(value.split("[.\u3002\uFF0E\uFF61]", -1));
            if (labels.stream().anyMatch(String::isEmpty)) {
                return false; // an empty label: a leading, doubled or trailing separator
            }
            return LIBRARY.matches(context, value)
                    && labels.stream().allMatch(StrictFormats::validALabel)
                    && BidiRule.allows(labels);
        }
    }

    /** RFC 5893: the Bidi rule, which applies to every label once any label is right-to-left. */
    static final class BidiRule {
        private BidiRule() {}

        static boolean allows(List<String> labels) {
            boolean bidiDomain = labels.stream().anyMatch(BidiRule::rightToLeft);
            return !bidiDomain || labels.stream().allMatch(BidiRule::valid);
        }

        private static boolean rightToLeft(String label) {
            return label.codePoints().anyMatch(c -> {
                byte d = Character.getDirectionality(c);
                return d == Character.DIRECTIONALITY_RIGHT_TO_LEFT
                        || d == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC
                        || d == Character.DIRECTIONALITY_ARABIC_NUMBER;
            });
        }

        private static boolean valid(String label) {
            int[] points = label.codePoints().toArray();
            byte first = Character.getDirectionality(points[0]);
            boolean rtl;
            if (first == Character.DIRECTIONALITY_RIGHT_TO_LEFT
                    || first == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC) {
                rtl = true;
            } else if (first == Character.DIRECTIONALITY_LEFT_TO_RIGHT) {
                rtl = false;
            } else {
                return false; // rule 1: a label starts with L, R or AL
            }
            boolean europeanDigits = false;
            boolean arabicDigits = false;
            int last = points.length - 1;
            while (last > 0 && Character.getDirectionality(points[last]) == Character.DIRECTIONALITY_NONSPACING_MARK) {
                last--;
            }
            for (int c : points) {
                byte d = Character.getDirectionality(c);
                europeanDigits |= d == Character.DIRECTIONALITY_EUROPEAN_NUMBER;
                arabicDigits |= d == Character.DIRECTIONALITY_ARABIC_NUMBER;
                if (!(rtl ? allowedRightToLeft(d) : allowedLeftToRight(d))) {
                    return false; // rules 2 and 5
                }
            }
            byte end = Character.getDirectionality(points[last]);
            if (rtl) {
                return !(europeanDigits && arabicDigits) // rule 4
                        && (end == Character.DIRECTIONALITY_RIGHT_TO_LEFT
                                || end == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC
                                || end == Character.DIRECTIONALITY_EUROPEAN_NUMBER
                                || end == Character.DIRECTIONALITY_ARABIC_NUMBER); // rule 3
            }
            return end == Character.DIRECTIONALITY_LEFT_TO_RIGHT
                    || end == Character.DIRECTIONALITY_EUROPEAN_NUMBER; // rule 6
        }

        /** RFC 5893 rule 2: what a right-to-left label may hold. */
        private static boolean allowedRightToLeft(byte d) {
            return d == Character.DIRECTIONALITY_RIGHT_TO_LEFT
                    || d == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC
                    || d == Character.DIRECTIONALITY_ARABIC_NUMBER
                    || allowedEitherWay(d);
        }

        /** RFC 5893 rule 5: what a left-to-right label may hold. */
        private static boolean allowedLeftToRight(byte d) {
            return d == Character.DIRECTIONALITY_LEFT_TO_RIGHT || allowedEitherWay(d);
        }

        private static boolean allowedEitherWay(byte d) {
            return d == Character.DIRECTIONALITY_EUROPEAN_NUMBER
                    || d == Character.DIRECTIONALITY_EUROPEAN_NUMBER_SEPARATOR
                    || d == Character.DIRECTIONALITY_COMMON_NUMBER_SEPARATOR
                    || d == Character.DIRECTIONALITY_EUROPEAN_NUMBER_TERMINATOR
                    || d == Character.DIRECTIONALITY_OTHER_NEUTRALS
                    || d == Character.DIRECTIONALITY_BOUNDARY_NEUTRAL
                    || d == Character.DIRECTIONALITY_NONSPACING_MARK;
        }
    }

    /**
     * RFC 3339 Appendix A durations: units in order, each at most once, a year's days only through
     * its months and an hour's seconds only through its minutes, weeks alone, ASCII digits.
     */
    static final class Duration implements Format {
        private static final String TIME = "T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)";
        private static final String DATE = "(?:[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?|[0-9]+M(?:[0-9]+D)?|[0-9]+D)";
        private static final Pattern DURATION =
                Pattern.compile("^P(?:" + DATE + "(?:" + TIME + ")?|" + TIME + "|[0-9]+W)$");

        @Override
        public String getName() {
            return "duration";
        }

        @Override
        public boolean matches(ExecutionContext context, String value) {
            return DURATION.matcher(value).matches();
        }
    }

    /**
     * ECMA-262 regular expressions. Valid syntax is what counts here: lookaround and
     * backreferences are valid ECMA-262, even though a schema {@code pattern} using them is refused
     * because it cannot run in linear time.
     */
    static final class Regex implements Format {
        @Override
        public String getName() {
            return "regex";
        }

        @Override
        public boolean matches(ExecutionContext context, String value) {
            try {
                Pattern.compile(EcmaScriptPatterns.syntaxOnly(value));
                return true;
            } catch (RuntimeException e) {
                return false;
            }
        }
    }

    /**
     * A URI or IRI format (RFC 3986, RFC 3987) whose authority is checked to the letter, where the
     * library is loose: one {@code @} at most, a port of digits only, no leading zero in an IPv6
     * literal's embedded IPv4 address, and IPvFuture literals ({@code [v1.fe]}, {@code v} in either case).
     */
    static final class WithAuthority implements Format {
        /** RFC 3986 Appendix B: splits any URI reference into its parts. */
        private static final Pattern PARTS = Pattern.compile("^(?:[^:/?#]+:)?(?://([^/?#]*))?");

        private static final Pattern IP_FUTURE = Pattern.compile("^[vV][0-9A-Fa-f]+\\.[A-Za-z0-9._~!$&'()*+,;=:-]+$");
        private static final Pattern DECIMAL_OCTET = Pattern.compile("^(?:0|[1-9][0-9]{0,2})$");

        private final Format library;

        WithAuthority(Format library) {
            this.library = library;
        }

        @Override
        public String getName() {
            return library.getName();
        }

        @Override
        public boolean matches(ExecutionContext context, String value) {
            com.google.re2j.Matcher parts = PARTS.matcher(value);
            String authority = parts.find() ? parts.group(1) : null;
            if (authority == null) {
                return library.matches(context, value);
            }
            int at = authority.indexOf('@');
            if (at >= 0 && authority.indexOf('@', at + 1) >= 0) {
                return false;
            }
            String hostPort = authority.substring(at + 1);
            String port = "";
            if (hostPort.startsWith("[")) {
                int close = hostPort.indexOf(']');
                if (close < 0) {
                    return false;
                }
                String literal = hostPort.substring(1, close);
                port = hostPort.substring(close + 1);
                if (literal.startsWith("v") || literal.startsWith("V")) {
                    // IPvFuture ("v" is case-insensitive), which the library does not know: checked
                    // here, and the rest of the reference checked with an IPv6 host in its place.
                    return IP_FUTURE.matcher(literal).matches()
                            && portValid(port)
                            && library.matches(context, value.replace("[" + literal + "]", "[::1]"));
                }
                if (!embeddedIpv4Valid(literal)) {
                    return false;
                }
            } else {
                int colon = hostPort.lastIndexOf(':');
                port = colon < 0 ? "" : hostPort.substring(colon);
            }
            return portValid(port) && library.matches(context, value);
        }

        private static boolean portValid(String port) {
            return port.isEmpty()
                    || (port.startsWith(":") && port.substring(1).chars().allMatch(c -> c >= '0' && c <= '9'));
        }

        private static boolean embeddedIpv4Valid(String literal) {
            int colon = literal.lastIndexOf(':');
            String last = literal.substring(colon + 1);
            if (!last.contains(".")) {
                return true;
            }
            for (String octet : last.split("\\.", -1)) {
                if (!DECIMAL_OCTET.matcher(octet).matches()) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * RFC 6570 URI templates, as the library's expression with the literal characters it lets
     * through (space, backslash) taken out, on RE2/J: the library's backtracking expression
     * overflows the stack on a long value.
     */
    static final class UriTemplate implements Format {
        private static final String VARIABLE =
                "(?:\\w|%[0-9A-Fa-f]{2})(?:\\.?(?:\\w|%[0-9A-Fa-f]{2}))*(?::[1-9][0-9]{0,3}|\\*)?";
        private static final Pattern TEMPLATE = Pattern.compile("^(?:[^\\x00-\\x20\\x7F\"%<>\\\\^`{|}]|%[0-9A-Fa-f]{2}"
                + "|\\{[+#./;?&=,!@|]?" + VARIABLE + "(?:," + VARIABLE + ")*\\})*$");

        @Override
        public String getName() {
            return "uri-template";
        }

        @Override
        public boolean matches(ExecutionContext context, String value) {
            return TEMPLATE.matcher(value).matches();
        }
    }

    /** A format that is one fixed pattern, run on RE2/J: linear, and no stack to overflow. */
    record Re2Format(String getName, Pattern pattern) implements Format {
        Re2Format(String name, String regex) {
            this(name, Pattern.compile(regex));
        }

        @Override
        public boolean matches(ExecutionContext context, String value) {
            return pattern.matcher(value).matches();
        }
    }
}
