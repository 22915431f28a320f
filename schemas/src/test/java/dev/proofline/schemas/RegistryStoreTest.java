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

    @Test
    void aRefusedSchemaIsNotEchoedWhole() {
        // Avro names what is wrong by quoting the schema: a 900 KB doc came back in a 900 KB error.
        String schema = "{\"type\":\"record\",\"doc\":\"" + "Z".repeat(900_000) + "\"}";
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> RegistryStore.canonical(schema));
        assertTrue(e.getMessage().startsWith("Invalid schema: "), e.getMessage());
        assertTrue(
                e.getMessage().length() <= SchemaRegistryException.MAX_MESSAGE,
                "" + e.getMessage().length());
        org.junit.jupiter.api.Assertions.assertEquals(42201, e.errorCode());
    }
}
