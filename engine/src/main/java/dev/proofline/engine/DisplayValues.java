package dev.proofline.engine;

import dev.proofline.attestor.EcmaScriptNumbers;
import java.math.BigDecimal;
import tools.jackson.databind.JsonNode;

/**
 * How values appear in receipt messages. Numbers follow the reference service, which prints them as
 * Python does: integers as digits, other numbers with a decimal point or an exponent
 * ({@code 135.0}, {@code 129.5}, {@code 1e-05}), so messages read the same from either service.
 * Strings are quoted; long values are cut.
 */
final class DisplayValues {
    private static final int MAX_LENGTH = 80;

    private DisplayValues() {}

    static String of(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return "nothing";
        }
        if (value.isNumber()) {
            return number(value);
        }
        if (value.isString()) {
            return cut("'" + value.stringValue() + "'");
        }
        if (value.isObject()) {
            return "an object with " + value.size() + (value.size() == 1 ? " property" : " properties");
        }
        if (value.isArray()) {
            return "a list of " + value.size() + (value.size() == 1 ? " item" : " items");
        }
        return value.isNull() ? "None" : value.booleanValue() ? "True" : "False";
    }

    static String number(JsonNode value) {
        if (value.isIntegralNumber()) {
            return value.bigIntegerValue().toString();
        }
        return floating(value.doubleValue());
    }

    /** Python's repr of a float: the shortest round-trip digits, fixed between 1e-4 and 1e16. */
    static String floating(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return d > 0 ? "inf" : d < 0 ? "-inf" : "nan";
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0.0" : "0.0";
        }
        BigDecimal shortest = new BigDecimal(EcmaScriptNumbers.format(d)).stripTrailingZeros();
        int exponent = shortest.precision() - shortest.scale() - 1; // of the leading digit
        if (exponent >= -4 && exponent < 16) {
            String plain = shortest.toPlainString();
            return plain.contains(".") ? plain : plain + ".0";
        }
        String digits = shortest.unscaledValue().abs().toString();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        String sign = shortest.signum() < 0 ? "-" : "";
        return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format("%02d", Math.abs(exponent));
    }

    /** A sum as Python would print it: an int when every term was an integer, else a float. */
    static String sum(double sum, boolean allIntegral) {
        return allIntegral && Math.abs(sum) < 9.007199254740992E15 ? Long.toString((long) sum) : floating(sum);
    }

    static String cut(String text) {
        return text.length() <= MAX_LENGTH ? text : text.substring(0, MAX_LENGTH - 3) + "...";
    }
}
