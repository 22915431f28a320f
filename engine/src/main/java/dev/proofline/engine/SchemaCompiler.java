package dev.proofline.engine;

import com.networknt.schema.Error;
import com.networknt.schema.ExecutionContext;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.path.PathType;
import dev.proofline.contract.FieldProblem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * Turns a caller's {@code expected_schema} into a compiled networknt schema, or into the field
 * problems that make the request invalid. Results, good and bad, are cached by {@code schema_hash}
 * in a bounded LRU, so a pipeline sending one schema a million times compiles it once.
 *
 * <p>Safety: the caller's schema is compiled in a registry that refuses to load anything but the
 * bundled meta-schemas (no http, file, jar or classpath {@code $ref}), and its patterns run with
 * ECMA-262 meaning on RE2/J. Meta-validation runs in a
 * second registry that only ever loads the bundled meta-schemas of the standard dialects.
 */
public final class SchemaCompiler {
    public static final String DEFAULT_DIALECT = SpecificationVersion.DRAFT_2020_12.getDialectId();
    private static final String DIALECTS = "https://json-schema.org/draft/2020-12/schema (the default), "
            + "https://json-schema.org/draft/2019-09/schema, http://json-schema.org/draft-07/schema#, "
            + "http://json-schema.org/draft-06/schema# or http://json-schema.org/draft-04/schema#";

    /** Every supported dialect, with the formats {@link StrictFormats} checks to the letter of their RFCs. */
    private static final List<Dialect> STRICT_FORMAT_DIALECTS = Stream.of(
                    Dialects.getDraft4(),
                    Dialects.getDraft6(),
                    Dialects.getDraft7(),
                    Dialects.getDraft201909(),
                    Dialects.getDraft202012())
            .map(dialect ->
                    Dialect.builder(dialect).formats(StrictFormats.all()).build())
            .toList();

    /** A compiled schema, or why the schema makes the request invalid. */
    public sealed interface Compilation {
        record Compiled(CompiledSchema schema) implements Compilation {}

        record Rejected(List<FieldProblem> problems) implements Compilation {}
    }

    private final SchemaRegistry registry;
    private final SchemaRegistry metaRegistry;
    private final Map<SpecificationVersion, Schema> metaSchemas = new ConcurrentHashMap<>();
    private final Map<String, Compilation> cache;
    private final AtomicLong compilations = new AtomicLong();

    private final boolean formatAssertion;

    /** A compiler that asserts {@code format}, as Proofline does by default. */
    public SchemaCompiler(int cacheSize) {
        this(cacheSize, true);
    }

    public SchemaCompiler(int cacheSize, boolean formatAssertion) {
        this.formatAssertion = formatAssertion;
        SchemaRegistryConfig config = SchemaRegistryConfig.builder()
                .regularExpressionFactory(Re2jRegularExpressions.INSTANCE)
                .formatAssertionsEnabled(formatAssertion)
                .pathType(PathType.LEGACY)
                .build();
        this.registry = SchemaRegistry.withDialects(
                STRICT_FORMAT_DIALECTS,
                b -> b.defaultDialectId(DEFAULT_DIALECT)
                        .schemaRegistryConfig(config)
                        .schemaLoader(loader -> loader.block(iri -> !StandardMetaSchemas.contains(iri.toString()))));
        // Meta-validation leaves format to annotation: a pattern or reference that cannot run is
        // explained by SchemaProblems, in its own words, not as "does not match the regex format".
        SchemaRegistryConfig metaConfig = SchemaRegistryConfig.builder()
                .regularExpressionFactory(Re2jRegularExpressions.INSTANCE)
                .formatAssertionsEnabled(false)
                .pathType(PathType.LEGACY)
                .build();
        this.metaRegistry = SchemaRegistry.withDefaultDialect(
                SpecificationVersion.DRAFT_2020_12, b -> b.schemaRegistryConfig(metaConfig));
        this.cache = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Compilation> eldest) {
                return size() > cacheSize;
            }
        };
    }

    /** How many schemas were compiled (cache misses) since start. */
    public long compilations() {
        return compilations.get();
    }

    public Compilation compile(JsonNode schemaNode, String schemaHash) {
        synchronized (cache) {
            Compilation cached = cache.get(schemaHash);
            if (cached != null) {
                return cached;
            }
        }
        // Compiled outside the lock: two threads may race on a new schema, and both get a correct result.
        Compilation compiled = compileUncached(schemaNode, schemaHash);
        compilations.incrementAndGet();
        synchronized (cache) {
            cache.put(schemaHash, compiled);
        }
        return compiled;
    }

    private Compilation compileUncached(JsonNode schemaNode, String schemaHash) {
        if (!schemaNode.isObject() && !schemaNode.isBoolean()) {
            return rejected(
                    "expected_schema",
                    "is not a schema (an object, or true or false)",
                    "Send a JSON Schema object, e.g. {\"type\": \"object\"}.");
        }
        Optional<SpecificationVersion> dialect = dialectOf(schemaNode);
        if (dialect.isEmpty()) {
            return rejected(
                    "expected_schema.$schema",
                    "names a JSON Schema dialect Proofline does not support",
                    "Use " + DIALECTS + ", or leave $schema out for draft 2020-12.");
        }
        List<FieldProblem> problems = metaValidate(schemaNode, dialect.get());
        if (!problems.isEmpty()) {
            return new Compilation.Rejected(problems);
        }
        // Before anything evaluates it: references stay inside, no endless or exploding recursion.
        List<FieldProblem> unsafe = SchemaReferences.check(schemaNode, dialect.get() == SpecificationVersion.DRAFT_4);
        if (!unsafe.isEmpty()) {
            return new Compilation.Rejected(unsafe);
        }
        try {
            Schema schema = registry.getSchema(schemaNode);
            schema.initializeValidators(); // resolves every $ref and compiles every pattern now
            return new Compilation.Compiled(new CompiledSchema(schemaHash, schema, formatAssertion));
        } catch (RuntimeException | StackOverflowError e) {
            // Whatever the validator library throws on a caller's schema (a count it cannot hold as an
            // int, a reference it cannot follow) makes the request invalid; it never escapes.
            return new Compilation.Rejected(SchemaProblems.explain(schemaNode, e));
        }
    }

    private static Optional<SpecificationVersion> dialectOf(JsonNode schemaNode) {
        JsonNode declared = schemaNode.isObject() ? schemaNode.get("$schema") : null;
        if (declared == null) {
            return Optional.of(SpecificationVersion.DRAFT_2020_12);
        }
        if (!declared.isString()) {
            return Optional.empty();
        }
        String id = declared.stringValue();
        Optional<SpecificationVersion> version = SpecificationVersion.fromDialectId(id);
        if (version.isEmpty()) {
            version =
                    SpecificationVersion.fromDialectId(id.endsWith("#") ? id.substring(0, id.length() - 1) : id + "#");
        }
        return version;
    }

    private List<FieldProblem> metaValidate(JsonNode schemaNode, SpecificationVersion dialect) {
        Schema meta =
                metaSchemas.computeIfAbsent(dialect, d -> metaRegistry.getSchema(SchemaLocation.of(d.getDialectId())));
        List<FieldProblem> problems = new ArrayList<>();
        FirstErrors errors = new FirstErrors();
        try {
            meta.validate(schemaNode, (ExecutionContext context) -> context.setErrors(errors));
        } catch (FirstErrors.Enough e) {
            // the first problems say what is wrong; the rest would only take memory
        } catch (RuntimeException e) {
            // The validator converts some keyword values to long or int (minItems: 1e308) and fails.
            return List.of(new FieldProblem(
                    "expected_schema",
                    "holds a number the validator cannot use (a count or length beyond a 64-bit integer)",
                    "Use counts and lengths that fit in a 32-bit integer."));
        }
        for (Error error : errors.subList(0, Math.min(errors.size(), FirstErrors.MOST))) {
            problems.add(new FieldProblem(
                    SchemaProblems.fieldName(error.getInstanceLocation().toString()),
                    "is not valid JSON Schema: " + error.getMessage(),
                    "Correct the schema so that it is valid under its dialect (" + dialect.getDialectId() + ")."));
        }
        return problems;
    }

    private static Compilation rejected(String field, String problem, String fix) {
        return new Compilation.Rejected(List.of(new FieldProblem(field, problem, fix)));
    }

    /**
     * The meta-schema's errors, up to {@link #MOST}: a schema of 500,000 invalid subschemas under a
     * 50,000-character key would make as many problems, each naming that key, before any budget could
     * see them. Stopping the validation stops it making more. (Inside anyOf and oneOf the validator
     * gathers errors in lists of its own, which hold them as light objects, their messages not yet
     * written; they pass through here when the keyword fails.)
     */
    private static final class FirstErrors extends ArrayList<Error> {
        static final int MOST = 100;

        static final class Enough extends RuntimeException {
            Enough() {
                super(null, null, false, false);
            }
        }

        @Override
        public boolean add(Error error) {
            if (size() >= MOST) {
                throw new Enough();
            }
            return super.add(error);
        }

        // anyOf and oneOf gather their subschemas' errors in lists of their own, then add them all.
        @Override
        public boolean addAll(java.util.Collection<? extends Error> errors) {
            for (Error error : errors) {
                add(error);
            }
            return !errors.isEmpty();
        }
    }
}
