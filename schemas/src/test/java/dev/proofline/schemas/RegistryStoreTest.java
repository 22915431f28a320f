package dev.proofline.schemas;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.junit.jupiter.api.Test;

class RegistryStoreTest {
    @Test
    void anInvalidSchemaSaysWhyWithoutTheJsonParsersClassName() {
        SchemaParseException cut =
                assertThrows(SchemaParseException.class, () -> new Schema.Parser().parse("{\"type\":\"rec"));
        assertTrue(cut.getMessage().contains("JsonEOFException"), cut.getMessage()); // what Avro says
        String reason = RegistryStore.reason(cut);
        assertFalse(reason.contains("Exception"), reason);
        assertTrue(reason.startsWith("Unexpected end-of-input"), reason);

        SchemaParseException unknownType =
                assertThrows(SchemaParseException.class, () -> new Schema.Parser().parse("{\"type\":\"nosuchtype\"}"));
        assertTrue(RegistryStore.reason(unknownType).equals(unknownType.getMessage()), "Avro's own words stay");
    }
}
