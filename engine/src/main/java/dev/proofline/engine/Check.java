package dev.proofline.engine;

/**
 * The names of the checks Proofline runs, as receipts print them. Schema checks are named after
 * their keyword ({@code schema:required}) and come from {@link #schema(String)}.
 */
public enum Check {
    SUM_EQUALS("consistency:sum_equals"),
    GTE("consistency:gte"),
    LTE("consistency:lte"),
    EXISTS_IN("consistency:exists_in"),
    UNIQUE("consistency:unique"),
    BOUNDS_MIN("bounds:min"),
    BOUNDS_MAX("bounds:max"),
    /** Built in: every number survives RFC 8785 canonicalization unchanged (so its hash means it). */
    EXACT_NUMBER("sanity:exact_number"),
    /** strict_content_check: a property the schema does not declare. */
    UNDECLARED_PROPERTY("content:undeclared_property"),
    /** strict_content_check: a required string that is empty or blank. */
    EMPTY_REQUIRED("content:empty_required"),
    /** strict_content_check: an obvious placeholder such as TODO or lorem ipsum. */
    PLACEHOLDER("content:placeholder");

    private final String id;

    Check(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static String schema(String keyword) {
        return "schema:" + keyword;
    }
}
