package dev.proofline.access;

import java.util.Locale;

/** What a key may do ({@code docs/access.md}): a caller reads its own receipts, an operator everything. */
public enum CallerRole {
    CALLER,
    OPERATOR;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static CallerRole parse(String text) {
        for (CallerRole role : values()) {
            if (role.label().equals(text)) {
                return role;
            }
        }
        throw new IllegalArgumentException("a role is 'caller' or 'operator', not '" + text + "'");
    }
}
