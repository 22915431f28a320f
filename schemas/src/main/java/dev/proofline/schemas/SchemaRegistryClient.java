package dev.proofline.schemas;

import org.apache.avro.Schema;

/**
 * The two calls a Confluent-format serde needs from a schema registry. Implemented over the
 * Schema Registry REST API ({@link RestSchemaRegistryClient}) and by the embedded registry's own
 * store ({@link RegistryStore}).
 */
public interface SchemaRegistryClient {
    /** Registers {@code schema} under {@code subject} (idempotent) and returns its global id. */
    int register(String subject, Schema schema);

    /** The schema with this global id. */
    Schema schemaById(int id);
}
