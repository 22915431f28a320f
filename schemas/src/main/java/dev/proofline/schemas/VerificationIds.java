package dev.proofline.schemas;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The verification id of a record is a name-based UUID of where it was read, so a record replayed
 * after a crash (same topic, partition and offset) gets the same id, and consumers outside Kafka
 * transactions can de-duplicate on it.
 */
public final class VerificationIds {
    private VerificationIds() {}

    public static UUID of(String topic, int partition, long offset) {
        return UUID.nameUUIDFromBytes(
                ("proofline:" + topic + "/" + partition + "/" + offset).getBytes(StandardCharsets.UTF_8));
    }
}
