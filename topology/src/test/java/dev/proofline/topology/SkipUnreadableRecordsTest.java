package dev.proofline.topology;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.InMemorySchemaRegistry;
import dev.proofline.schemas.SchemaRegistryException;
import dev.proofline.schemas.avro.Receipt;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SkipUnreadableRecordsTest {
    private final AvroSerde<Receipt> receipts = new AvroSerde<>(new InMemorySchemaRegistry(), Receipt.getClassSchema());

    @Test
    void bytesThatAreNoReceiptAreSkippedButARegistryThatCannotAnswerIsRetried() {
        // Not the wire format; the wire format around bytes that are not Avro; an id the registry
        // does not have (it looks for an unknown id before it says so): the record's fault.
        for (byte[] foreign : new byte[][] {
            "not avro".getBytes(StandardCharsets.UTF_8), {0, 0, 0, 0, 1, 9, 9, 9}, {0, 0x7f, 0x7f, 0x7f, 0x7f, 9, 9}
        }) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> receipts.deserialize(foreign));
            assertFalse(SkipUnreadableRecords.registryFailed(e), e.toString());
        }
        // The registry's: unreachable, or its topic unreadable for now.
        assertTrue(SkipUnreadableRecords.registryFailed(
                new IllegalStateException(new SchemaRegistryException(50003, "unreachable"))));
        assertTrue(SkipUnreadableRecords.registryFailed(new SchemaRegistryException(50002, "cannot be read now")));
    }
}
