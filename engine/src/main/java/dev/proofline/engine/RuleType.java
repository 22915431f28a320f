package dev.proofline.engine;

/**
 * The rule types of {@code docs/request.md} and which optional field names their reference: the value a
 * rule compares against, given either as a path into the output or as a constant.
 */
public enum RuleType {
    SUM_EQUALS("sum_equals", Check.SUM_EQUALS, "equals_field", "equals"),
    GTE("gte", Check.GTE, "other_field", "value"),
    LTE("lte", Check.LTE, "other_field", "value"),
    EXISTS_IN("exists_in", Check.EXISTS_IN, "in_field", "values"),
    UNIQUE("unique", Check.UNIQUE, null, null);

    public static final String ALLOWED = "'sum_equals', 'gte', 'lte', 'exists_in' or 'unique'";

    private final String wireName;
    private final Check check;
    private final String referenceField;
    private final String referenceConstant;

    RuleType(String wireName, Check check, String referenceField, String referenceConstant) {
        this.wireName = wireName;
        this.check = check;
        this.referenceField = referenceField;
        this.referenceConstant = referenceConstant;
    }

    public static RuleType fromWireName(String name) {
        for (RuleType type : values()) {
            if (type.wireName.equals(name)) {
                return type;
            }
        }
        return null;
    }

    public String wireName() {
        return wireName;
    }

    public Check check() {
        return check;
    }

    /** The field holding a path to the reference ({@code equals_field}), or null for unique. */
    public String referenceField() {
        return referenceField;
    }

    /** The field holding a constant reference ({@code equals}), or null for unique. */
    public String referenceConstant() {
        return referenceConstant;
    }
}
