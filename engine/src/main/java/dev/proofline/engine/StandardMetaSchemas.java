package dev.proofline.engine;

import java.util.Set;

/**
 * The meta-schemas of the JSON Schema dialects Proofline supports, which the validator library
 * bundles: a schema may refer to them ({@code "$ref": "https://json-schema.org/draft/2020-12/schema"}
 * checks that a value is itself a schema). They resolve from the bundled copies; every other
 * external reference is still refused, and nothing is ever fetched.
 */
final class StandardMetaSchemas {
    private static final Set<String> DIALECTS = Set.of(
            "https://json-schema.org/draft/2020-12/schema",
            "https://json-schema.org/draft/2019-09/schema",
            "http://json-schema.org/draft-07/schema",
            "http://json-schema.org/draft-06/schema",
            "http://json-schema.org/draft-04/schema");
    /** The vocabulary meta-schemas the 2020-12 and 2019-09 meta-schemas are made of. */
    private static final Set<String> VOCABULARY_PREFIXES =
            Set.of("https://json-schema.org/draft/2020-12/meta/", "https://json-schema.org/draft/2019-09/meta/");

    private StandardMetaSchemas() {}

    /** Whether an absolute IRI (with or without a fragment) names a bundled meta-schema. */
    static boolean contains(String iri) {
        int hash = iri.indexOf('#');
        String resource = hash < 0 ? iri : iri.substring(0, hash);
        return DIALECTS.contains(resource)
                || VOCABULARY_PREFIXES.stream()
                        .anyMatch(prefix -> resource.startsWith(prefix)
                                && resource.substring(prefix.length()).matches("[a-z-]+"));
    }
}
