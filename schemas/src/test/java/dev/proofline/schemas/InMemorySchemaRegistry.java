package dev.proofline.schemas;

import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;

/** A registry for TopologyTestDriver tests, which run without a broker or an HTTP server. */
public final class InMemorySchemaRegistry implements SchemaRegistryClient {
    private final Map<String, Integer> ids = new HashMap<>();
    private final Map<Integer, Schema> schemas = new HashMap<>();

    @Override
    public synchronized int register(String subject, Schema schema) {
        return ids.computeIfAbsent(schema.toString(), s -> {
            int id = schemas.size() + 1;
            schemas.put(id, schema);
            return id;
        });
    }

    @Override
    public synchronized Schema schemaById(int id) {
        Schema schema = schemas.get(id);
        if (schema == null) {
            throw new SchemaRegistryException(40403, "Schema " + id + " not found");
        }
        return schema;
    }
}
