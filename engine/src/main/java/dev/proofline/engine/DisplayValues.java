package dev.proofline.engine;

import dev.proofline.attestor.EcmaScriptNumbers;
import dev.proofline.contract.ShortText;
import java.math.BigDecimal;
import java.math.RoundingMode;
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

    /**
     * A sum as Python would print it (an int when every term was an integer, else a float), at the
     * precision of its terms: 87.0 + 42.5 prints 129.5, and terms with two decimals never print a
     * binary rounding tail such as 1920.9499999999998 (the comparison itself uses the exact double).
     */
    static String sum(double sum, boolean allIntegral, int decimals) {
        if (allIntegral && Math.abs(sum) < 9.007199254740992E15) {
            return Long.toString((long) sum);
        }
        if (!Double.isFinite(sum)) {
            return floating(sum);
        }
        return floating(atPrecision(sum, decimals));
    }

    /**
     * The same for a sum that missed {@code expected}: when at its terms' precision it would read as
     * the very number it missed (0.1 + 0.2 against 0.3 with no tolerance), every digit is shown, so
     * the message says why it failed.
     */
    static String missedSum(double sum, boolean allIntegral, int decimals, double expected) {
        boolean readsAsExpected = !allIntegral && Double.isFinite(sum) && atPrecision(sum, decimals) == expected;
        return readsAsExpected ? floating(sum) : sum(sum, allIntegral, decimals);
    }

    private static double atPrecision(double sum, int decimals) {
        return new BigDecimal(sum).setScale(decimals, RoundingMode.HALF_EVEN).doubleValue();
    }

    /** Digits after the decimal point in the number's shortest form: 2 for 1934.74, 0 for 87.0. */
    static int decimals(JsonNode number) {
        if (number.isIntegralNumber()) {
            return 0;
        }
        double d = number.doubleValue();
        if (!Double.isFinite(d) || d == 0) {
            return 0;
        }
        return Math.max(
                0,
                new BigDecimal(EcmaScriptNumbers.format(d)).stripTrailingZeros().scale());
    }

    static String cut(String text) {
        return ShortText.atMost(text, MAX_LENGTH);
    }
}
