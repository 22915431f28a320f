package dev.proofline.engine;

import com.networknt.schema.Error;
import com.networknt.schema.ExecutionContext;
import com.networknt.schema.walk.KeywordWalkHandler;
import com.networknt.schema.walk.WalkEvent;
import com.networknt.schema.walk.WalkFlow;
import com.networknt.schema.walk.WalkListener;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Validates the output against its compiled schema and counts the checks ({@code docs/receipt.md}).
 *
 * <p>How checks are counted: one check is one assertion keyword applied at one instance location
 * that exists ({@code required} counts once per object, however many names it lists). Keywords that
 * only apply other schemas (properties, items, allOf, $ref, ...) are not checks themselves; their
 * subschemas' keywords are. A keyword whose subschemas may fail without failing it (anyOf, oneOf,
 * not, if, contains) counts as one check, and the keywords inside it are not counted. A keyword
 * passes when it adds no error. The conformance invoice counts 22.
 *
 * <p>The same walk records which properties the schema declares and requires at each location,
 * which the strict content checks need.
 */
final class SchemaChecks {
    /** Pass or fail as a whole; what happens inside them is not a check of its own. */
    private static final Set<String> OPAQUE = Set.of("anyOf", "oneOf", "not", "if", "contains");
    /**
     * Keywords that can fail a value on their own: only these are checks (with the {@link #OPAQUE}
     * ones, and an applicator whose value is {@code false}), and only where the schema's draft makes
     * them assert ({@link CountingListener#passesEveryValue}). Annotations ({@code title}, {@code
     * default}...), core keywords ({@code $schema}, {@code $defs}...) and keywords no vocabulary
     * knows pass every value, so counting them would only raise the ratio. {@code format} is one only
     * while it asserts; {@code contentEncoding} and {@code contentMediaType} only in draft 7, the
     * last to assert them; {@code minContains} and {@code maxContains} never, since {@code contains}
     * reports what they find.
     */
    private static final Set<String> ASSERTIONS = Set.of(
            "type",
            "enum",
            "const",
            "multipleOf",
            "maximum",
            "exclusiveMaximum",
            "minimum",
            "exclusiveMinimum",
            "maxLength",
            "minLength",
            "pattern",
            "format",
            "maxItems",
            "minItems",
            "uniqueItems",
            "maxProperties",
            "minProperties",
            "required",
            "dependentRequired",
            "contentEncoding",
            "contentMediaType");
    /**
     * networknt's validators that pass every value (annotations, keywords a draft does not know,
     * modifiers of another keyword), resolved once: the walk asks for every keyword it meets.
     */
    private static final Set<Class<?>> NEVER_FAILING_VALIDATORS = Set.of(
            networkntClass("com.networknt.schema.keyword.AnnotationKeyword$Validator"),
            networkntClass("com.networknt.schema.keyword.NonValidationKeyword$Validator"));

    /** Package-private in networknt, so by name; failing here at class load beats counting wrong. */
    private static Class<?> networkntClass(String name) {
        try {
            return Class.forName(name, false, SchemaChecks.class.getClassLoader());
        } catch (ClassNotFoundException renamed) {
            throw new IllegalStateException("networknt no longer has " + name, renamed);
        }
    }

    /** Keywords whose passing branch applies its own properties (if: its then or else, and itself). */
    private static final Set<String> BRANCHES = Set.of("anyOf", "oneOf", "if");
    /** Apply subschemas; their own keywords are the checks. */
    private static final Set<String> APPLICATORS = Set.of(
            "properties",
            "patternProperties",
            "additionalProperties",
            "items",
            "prefixItems",
            "additionalItems",
            "allOf",
            "$ref",
            "$dynamicRef",
            "$recursiveRef",
            "dependentSchemas",
            "dependencies",
            "propertyNames",
            "unevaluatedProperties",
            "unevaluatedItems",
            "then",
            "else");

    /**
     * Applicators networknt 3.0.9 evaluates without walking into them: no keyword inside them reaches
     * the listener, so they are paid for before they run, by the values they apply to times the size
     * of what they apply ({@link CountingListener#payUpFront}).
     */
    private static final Set<String> UNWALKED =
            Set.of("patternProperties", "propertyNames", "contains", "unevaluatedProperties", "unevaluatedItems");
    /** Nodes counted in one subschema before its size is taken as this: already far past any budget. */
    private static final int MAX_COUNTED_NODES = 10_000_000;

    /** Properties the schema declares and requires at one instance location. */
    static final class ObjectShape {
        final Set<String> declared = new LinkedHashSet<>();
        final Set<String> required = new LinkedHashSet<>();
        boolean declaresProperties;
        boolean open; // additionalProperties, patternProperties or unevaluatedProperties decide instead

        boolean undeclared(String name) {
            return declaresProperties && !open && !declared.contains(name);
        }
    }

    /** @param branches whether the walk met an anyOf, oneOf or if: a branch may declare properties */
    record Outcome(
            CheckTally tally, Map<String, ObjectShape> shapes, Map<String, JsonNode> objects, boolean branches) {}

    private SchemaChecks() {}

    static Outcome run(CompiledSchema compiled, JsonNode output, WorkBudget budget) {
        return run(compiled, output, budget, false);
    }

    /**
     * @param branchDeclarations also count as declared the properties a passing branch lists
     *     ({@code anyOf}, {@code oneOf}, {@code then}, {@code else}): the strict content checks need it
     */
    static Outcome run(CompiledSchema compiled, JsonNode output, WorkBudget budget, boolean branchDeclarations) {
        return budget.running(() -> {
            Outcome outcome = checked(compiled, output, budget);
            if (branchDeclarations) {
                addBranchDeclarations(compiled, output, outcome, budget);
            }
            return outcome;
        });
    }

    /**
     * The counting walk does not record what {@code anyOf}, {@code oneOf} and {@code if} apply (their
     * keywords are not checks of their own; networknt validates a oneOf without walking into it), so
     * a property only a branch lists would read as undeclared. networknt's {@code properties}
     * annotations say which names each {@code properties} keyword applied to, and when a schema
     * fails, those it made at its own location are marked invalid, a failed branch's among them.
     *
     * <p>For an output the schema accepts, the valid ones are taken: a branch the output does not
     * pass declares nothing at the branch's own location (deeper inside it, networknt keeps them
     * valid, so there a failed branch may still declare). For an output the schema refuses, every
     * error marks the root's annotations invalid, the passing branch's too, so every branch's count:
     * the output fails anyway, and the strict checks must not add findings that are not so.
     *
     * <p>A second validation, with the annotations collected, rather than the one that decides:
     * collecting them changes networknt's paths (every anyOf branch is evaluated), and the verdict
     * must not depend on whether the strict checks were asked for. It may spend what the budget has
     * left, counted in networknt's own evaluation steps.
     */
    private static void addBranchDeclarations(
            CompiledSchema compiled, JsonNode output, Outcome outcome, WorkBudget budget) {
        Map<String, ObjectShape> shapes = outcome.shapes();
        if (shapes.isEmpty() || !outcome.branches()) {
            return; // nothing to check, or no branch that could declare more
        }
        boolean accepted = outcome.tally().findings().isEmpty();
        ExecutionContext[] context = new ExecutionContext[1];
        java.util.function.Consumer<ExecutionContext> collecting = ctx -> {
            ctx.executionConfig(config -> config.annotationCollectionEnabled(true)
                    .annotationCollectionFilter("properties"::equals)
                    // networknt counts entering a schema as a step as well as each keyword, the
                    // walk only keywords: twice the steps is the same work.
                    .maxEvaluationSteps(2 * budget.remaining()));
            context[0] = ctx;
        };
        try {
            compiled.schema().validate(output, collecting);
        } catch (com.networknt.schema.ValidationLimitExceededException overBudget) {
            budget.exhausted();
        }
        context[0].getAnnotations().asMap().forEach((location, annotations) -> {
            ObjectShape shape = shapes.get(location.toString());
            if (shape == null) {
                return;
            }
            for (com.networknt.schema.annotation.Annotation annotation : annotations) {
                if ("properties".equals(annotation.getKeyword())
                        && (annotation.isValid() || !accepted)
                        && annotation.getValue() instanceof java.util.Collection<?> names) {
                    names.forEach(name -> shape.declared.add(String.valueOf(name)));
                }
            }
        });
    }

    private static Outcome checked(CompiledSchema compiled, JsonNode output, WorkBudget budget) {
        CountingListener listener = new CountingListener(budget, compiled.formatAsserts());
        compiled.schema()
                .walk(
                        output,
                        true,
                        (ExecutionContext ctx) ->
                                ctx.walkConfig(walk -> walk.keywordWalkHandler(KeywordWalkHandler.builder()
                                        .keywordWalkListener(listener)
                                        .build())));
        // The walk counts checks and spends the budget, but validate() decides (it does the same work
        // again, so the walk's count bounds it too): in networknt 3.0.9 a validating walk misses
        // some errors that validate() reports (draft-07 additionalItems after an items array).
        // Each error is a light object until its message is written: an enum's message repeats the
        // whole enum, a path repeats 50,000-character keys. They are written into findings one by
        // one below, each paid for by its length (CheckTally), so no request keeps more than the
        // budget allows.
        List<Error> errors = compiled.schema().validate(output);
        CheckTally tally = new CheckTally(budget);
        // Invalid, yet no counted keyword seen failing (an error inside propertyNames, say, whose
        // keywords networknt does not walk): one failed check is added, and the counted ones passed.
        boolean uncountedFailure = !errors.isEmpty() && listener.failed == 0;
        int total = listener.counted + (uncountedFailure ? 1 : 0);
        int failed = errors.isEmpty() ? 0 : Math.max(1, listener.failed);
        tally.addCounts(total - failed, total);
        for (Error error : errors) {
            tally.failUncounted(finding(error));
        }
        return new Outcome(tally, listener.shapes, listener.objects, listener.branches);
    }

    private static Finding finding(Error error) {
        String keyword = error.getKeyword() == null ? "schema" : error.getKeyword();
        String location = error.getInstanceLocation().toString();
        String path = location;
        String expected;
        String found;
        if ("required".equals(keyword) && error.getProperty() != null) {
            path = location + "." + error.getProperty();
            expected = "required property '" + error.getProperty() + "'";
            found = "missing";
        } else {
            // networknt hands over the keyword's own value ("^[A-Z]{3}$", 0, ["EUR","USD"]): the
            // constraint itself, so the hint says what would pass, not only which keyword failed.
            JsonNode constraint = error.getSchemaNode();
            expected = keyword + (constraint == null || constraint.isMissingNode() ? "" : " " + constraint(constraint));
            found = DisplayValues.of(error.getInstanceNode());
        }
        String field = FieldPath.field(path);
        return new Finding(
                Finding.Source.SCHEMA,
                Check.schema(keyword),
                path,
                field,
                expected,
                found,
                error.getMessage(),
                true,
                "");
    }

    /** A string constraint (a pattern, a type, a format) as it reads; anything else as JSON. */
    private static String constraint(JsonNode value) {
        return DisplayValues.cut(value.isString() ? value.stringValue() : value.toString());
    }

    /** The nodes of a JSON value, itself included, counted up to {@link #MAX_COUNTED_NODES}. */
    static int nodes(JsonNode value) {
        int counted = 0;
        Deque<JsonNode> left = new ArrayDeque<>();
        left.push(value);
        while (!left.isEmpty() && counted < MAX_COUNTED_NODES) {
            JsonNode node = left.pop();
            counted++;
            if (node.isContainer()) {
                node.values().forEach(left::push);
            }
        }
        return counted;
    }

    private static final class CountingListener implements WalkListener {
        final WorkBudget budget;
        final Map<String, ObjectShape> shapes = new LinkedHashMap<>();
        final Map<String, JsonNode> objects = new LinkedHashMap<>();
        final Deque<Integer> errorsBefore = new ArrayDeque<>();
        // Subschema sizes by identity: the same keyword meets many objects.
        final Map<JsonNode, Integer> sizes = new java.util.IdentityHashMap<>();
        int opaqueDepth;
        boolean branches;
        int counted;
        int failed;

        final boolean formatAsserts;

        CountingListener(WorkBudget budget, boolean formatAsserts) {
            this.budget = budget;
            this.formatAsserts = formatAsserts;
        }

        @Override
        public WalkFlow onWalkStart(WalkEvent event) {
            budget.spend(1);
            if (UNWALKED.contains(event.getKeyword())) {
                payUpFront(event);
            }
            errorsBefore.push(event.getExecutionContext().getErrors().size());
            branches |= BRANCHES.contains(event.getKeyword());
            if (OPAQUE.contains(event.getKeyword())) {
                opaqueDepth++;
            }
            return WalkFlow.CONTINUE;
        }

        /**
         * Each value inside the instance may meet every node of the keyword's subschemas (keywords,
         * and the values an enum or const compares; nested ones too, since nothing inside is walked):
         * 40,000 names against an enum of 20,000 cost 800 million steps before they run, not
         * seconds and gigabytes after.
         */
        private void payUpFront(WalkEvent event) {
            JsonNode instance = event.getInstanceNode();
            JsonNode schemaNode = event.getSchema().getSchemaNode();
            JsonNode value = schemaNode == null ? null : schemaNode.get(event.getKeyword());
            if (instance != null && instance.isContainer() && value != null) {
                budget.spend((long) (nodes(instance) - 1) * sizes.computeIfAbsent(value, SchemaChecks::nodes));
            }
        }

        @Override
        public void onWalkEnd(WalkEvent event, List<Error> keywordErrors) {
            int before = errorsBefore.isEmpty() ? 0 : errorsBefore.pop();
            String keyword = event.getKeyword();
            boolean opaque = OPAQUE.contains(keyword);
            if (opaque) {
                opaqueDepth--;
            }
            JsonNode instance = event.getInstanceNode();
            if (opaqueDepth > 0 || instance == null || instance.isMissingNode()) {
                return;
            }
            JsonNode schemaNode = event.getSchema().getSchemaNode();
            if (instance.isObject() && (keyword.equals("properties") || keyword.equals("required"))) {
                recordShape(event.getInstanceLocation().toString(), keyword, schemaNode, instance);
            }
            if (!isCheck(keyword, schemaNode, event.getValidator())) {
                return;
            }
            counted++;
            if (event.getExecutionContext().getErrors().size() > before) {
                failed++;
            }
        }

        private boolean isCheck(String keyword, JsonNode schemaNode, Object validator) {
            if (passesEveryValue(validator)) {
                return false; // even an applicator's or contains' name, where the draft does not know it
            }
            if (APPLICATORS.contains(keyword)) {
                return falseSchema(schemaNode, keyword);
            }
            return OPAQUE.contains(keyword)
                    || (ASSERTIONS.contains(keyword) && (formatAsserts || !keyword.equals("format")));
        }

        /**
         * Whether networknt gave the keyword a validator that never fails: one its draft reads as an
         * annotation or does not know ({@code const} in draft 4, {@code contentEncoding} after
         * draft 7), or a modifier of another ({@code exclusiveMaximum: true} in draft 4, whose
         * failures {@code maximum} reports).
         */
        private static boolean passesEveryValue(Object validator) {
            return validator != null && NEVER_FAILING_VALIDATORS.contains(validator.getClass());
        }

        /** An applicator whose value is the schema {@code false} asserts: nothing passes it. */
        private static boolean falseSchema(JsonNode schemaNode, String keyword) {
            JsonNode keywordValue = schemaNode == null ? null : schemaNode.get(keyword);
            return keywordValue != null && keywordValue.isBoolean() && !keywordValue.booleanValue();
        }

        /** What a {@code properties} or {@code required} keyword says about the object at {@code location}. */
        private void recordShape(String location, String keyword, JsonNode schemaNode, JsonNode instance) {
            budget.spendOnText(location.length()); // kept as a key, once per keyword and object
            ObjectShape shape = shapes.computeIfAbsent(location, l -> new ObjectShape());
            objects.putIfAbsent(location, instance);
            JsonNode value = schemaNode.get(keyword);
            if (keyword.equals("properties") && value != null && value.isObject()) {
                shape.declaresProperties = true;
                shape.declared.addAll(value.propertyNames());
                shape.open |= schemaNode.has("additionalProperties")
                        || schemaNode.has("patternProperties")
                        || schemaNode.has("unevaluatedProperties");
            } else if (keyword.equals("required") && value != null && value.isArray()) {
                value.forEach(name -> shape.required.add(name.asString()));
            }
        }
    }
}
