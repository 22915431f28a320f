package dev.proofline.engine;

import com.networknt.schema.Schema;

/**
 * A caller's schema, meta-validated and compiled once, shared by every request that sends it.
 *
 * @param formatAsserts whether {@code format} fails values that do not match it ({@code
 *     verify.format.assertion}); otherwise it is an annotation, never a check
 */
public record CompiledSchema(String schemaHash, Schema schema, boolean formatAsserts) {}
