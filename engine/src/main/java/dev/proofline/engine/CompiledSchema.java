package dev.proofline.engine;

import com.networknt.schema.Schema;

/** A caller's schema, meta-validated and compiled once, shared by every request that sends it. */
public record CompiledSchema(String schemaHash, Schema schema) {}
