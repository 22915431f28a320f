package dev.proofline.contract;

import java.util.List;

/** Field names of a verification request ({@code docs/request.md}). */
public final class RequestFields {
    public static final String TASK_ID = "task_id";
    public static final String AGENT_ID = "agent_id";
    public static final String EXPECTED_SCHEMA = "expected_schema";
    public static final String SUBMITTED_OUTPUT = "submitted_output";
    public static final String RULES = "rules";
    public static final String BOUNDS = "bounds";
    public static final String ENFORCE_RULES = "enforce_rules";
    public static final String STRICT_CONTENT_CHECK = "strict_content_check";
    public static final String DETAIL = "detail";

    /** Every field a request may carry; any other is refused. */
    public static final List<String> ALL = List.of(
            TASK_ID,
            AGENT_ID,
            EXPECTED_SCHEMA,
            SUBMITTED_OUTPUT,
            RULES,
            BOUNDS,
            ENFORCE_RULES,
            STRICT_CONTENT_CHECK,
            DETAIL);

    private RequestFields() {}
}
