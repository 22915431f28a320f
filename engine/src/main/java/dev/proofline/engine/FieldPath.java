package dev.proofline.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A path into the submitted output as rules and bounds write it ({@code docs/request.md}):
 * {@code total} selects one value, {@code line_items[].line_total} the {@code line_total} of every
 * element of {@code line_items}, and segments nest ({@code a.b[].c[].d}). A leading {@code []}
 * selects the elements of a top-level array.
 */
public final class FieldPath {
    private static final Pattern SEGMENT = Pattern.compile("[^.\\[\\]]*(\\[\\])*");

    private final String text;
    private final List<Step> steps;

    private record Step(String name, int arrayDepth) {}

    /** One selected value and where it was found ({@code $.line_items[1].line_total}). */
    public record Selected(String location, JsonNode value) {}

    /**
     * A location inside the output as a field name, without its root: {@code $.items[1].sku} is
     * {@code items[1].sku}, and in a top-level array {@code $[1].v} is {@code [1].v}; the root itself
     * stays {@code $}.
     */
    static String field(String location) {
        if (location.startsWith("$.")) {
            return location.substring(2);
        }
        return location.length() > 1 && location.startsWith("$") ? location.substring(1) : location;
    }

    private FieldPath(String text, List<Step> steps) {
        this.text = text;
        this.steps = steps;
    }

    /** Parses a path, or returns null when it is not one; callers turn that into a field problem. */
    public static FieldPath parse(String text) {
        if (text == null || text.isEmpty() || text.length() > 500) {
            return null;
        }
        List<Step> steps = new ArrayList<>();
        String[] segments = text.split("\\.", -1);
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (!SEGMENT.matcher(segment).matches()) {
                return null;
            }
            int bracket = segment.indexOf('[');
            String name = bracket < 0 ? segment : segment.substring(0, bracket);
            int depth = bracket < 0 ? 0 : (segment.length() - bracket) / 2;
            if (name.isEmpty() && (i > 0 || depth == 0)) {
                return null; // empty segments only as the leading "[]" of a top-level array
            }
            steps.add(new Step(name, depth));
        }
        return new FieldPath(text, List.copyOf(steps));
    }

    public static String describeSyntax() {
        return "Write a path as dot-separated property names, with [] after an array to select every element: "
                + "'total', 'line_items[].line_total'.";
    }

    /** Every value the path selects, in document order; nothing when a step is missing. */
    public List<Selected> select(JsonNode root) {
        List<Selected> out = new ArrayList<>();
        select(root, 0, new StringBuilder("$"), out);
        return out;
    }

    private void select(JsonNode node, int stepIndex, StringBuilder location, List<Selected> out) {
        if (stepIndex == steps.size()) {
            out.add(new Selected(location.toString(), node));
            return;
        }
        Step step = steps.get(stepIndex);
        int mark = location.length();
        JsonNode next = node;
        if (!step.name().isEmpty()) {
            next = node.isObject() ? node.get(step.name()) : null;
            if (next == null) {
                return;
            }
            location.append('.').append(step.name());
        }
        expand(next, step.arrayDepth(), stepIndex, location, out);
        location.setLength(mark);
    }

    private void expand(JsonNode node, int arrayDepth, int stepIndex, StringBuilder location, List<Selected> out) {
        if (arrayDepth == 0) {
            select(node, stepIndex + 1, location, out);
            return;
        }
        if (!node.isArray()) {
            return;
        }
        int mark = location.length();
        for (int i = 0; i < node.size(); i++) {
            location.append('[').append(i).append(']');
            expand(node.get(i), arrayDepth - 1, stepIndex, location, out);
            location.setLength(mark);
        }
    }

    /** The path as the caller wrote it. */
    @Override
    public String toString() {
        return text;
    }

    /** The path as messages write it: {@code $.line_items[].line_total}. */
    public String display() {
        return text.startsWith("[") ? "$" + text : "$." + text;
    }
}
