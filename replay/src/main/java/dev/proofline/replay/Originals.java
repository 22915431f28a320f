package dev.proofline.replay;

import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.Headers;
import dev.proofline.contract.Topics;
import dev.proofline.schemas.SchemaRegistryException;
import dev.proofline.schemas.avro.Receipt;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.Deserializer;
import tools.jackson.databind.JsonNode;

/**
 * Finds what the deployment actually answered for the replayed requests: the receipt with the
 * request's verification id on the receipts topic, or the dead letter whose source headers name the
 * request's partition and offset. Both carry the request's own timestamp, so reading starts at the
 * earliest replayed request's time and stops once every request is accounted for (or at the end).
 */
final class Originals {
    private final Map<String, Object> kafka;
    private final Topics topics;
    private final Deserializer<Receipt> receipts;
    private final Duration stallTimeout;

    Originals(Map<String, Object> kafka, Topics topics, Deserializer<Receipt> receipts, Duration stallTimeout) {
        this.kafka = kafka;
        this.topics = topics;
        this.receipts = receipts;
        this.stallTimeout = stallTimeout;
    }

    /** The original outcome of each replayed request that has one, by verification id. */
    Map<UUID, Outcome> find(Map<UUID, Replayed> wanted, long earliestTimestamp, Throttle throttle)
            throws InterruptedException {
        Map<UUID, Outcome> found = new HashMap<>();
        if (wanted.isEmpty()) {
            return found;
        }
        Map<String, UUID> byPosition = new HashMap<>();
        wanted.values().forEach(r -> byPosition.put(r.partition() + "/" + r.offset(), r.verificationId()));
        ReplayRange.Start since = new ReplayRange.FromTime(Instant.ofEpochMilli(earliestTimestamp));
        try (BoundedReader reader =
                new BoundedReader(kafka, Map.of(topics.receipts(), since, topics.deadLetter(), since), stallTimeout)) {
            reader.read(record -> {
                throttle.acquire();
                if (record.topic().equals(topics.receipts())) {
                    receipt(record, wanted, found);
                } else {
                    deadLetter(record, byPosition, found);
                }
                return found.size() < wanted.size();
            });
        }
        return found;
    }

    /** Confluent's error code for a schema id the registry does not know (a 404 of another kind is a wrong URL). */
    private static final int UNKNOWN_SCHEMA_ID = 40403;

    private void receipt(ConsumerRecord<byte[], byte[]> record, Map<UUID, Replayed> wanted, Map<UUID, Outcome> found) {
        if (record.value() == null) {
            return;
        }
        Receipt receipt;
        UUID id;
        try {
            receipt = receipts.deserialize(record.topic(), record.value());
            id = UUID.fromString(receipt.getVerificationId());
        } catch (SchemaRegistryException e) {
            if (e.errorCode() != UNKNOWN_SCHEMA_ID) {
                // Unreachable or refusing: every receipt would look foreign and the report would call
                // every original missing. That is no answer.
                throw e;
            }
            return; // a schema id the registry does not know: not a receipt Proofline wrote
        } catch (RuntimeException e) {
            return; // not a receipt Proofline wrote, so not the original of any request
        }
        if (wanted.containsKey(id)) {
            JsonNode signed;
            try {
                signed = StrictJson.parse(receipt.getSignedJson());
            } catch (RuntimeException e) {
                return; // not JSON: not what Proofline signs, so not the original either
            }
            found.put(id, Outcome.ofReceipt(signed));
        }
    }

    private void deadLetter(
            ConsumerRecord<byte[], byte[]> record, Map<String, UUID> byPosition, Map<UUID, Outcome> found) {
        String source = text(record, Headers.SOURCE_TOPIC);
        Header partition = record.headers().lastHeader(Headers.SOURCE_PARTITION);
        Header offset = record.headers().lastHeader(Headers.SOURCE_OFFSET);
        if (!topics.input().equals(source)
                || partition == null
                || partition.value() == null
                || partition.value().length != Integer.BYTES
                || offset == null
                || offset.value() == null
                || offset.value().length != Long.BYTES) {
            return; // a dead letter of another topic, or not one Proofline wrote
        }
        UUID id = byPosition.get(ByteBuffer.wrap(partition.value()).getInt() + "/"
                + ByteBuffer.wrap(offset.value()).getLong());
        if (id != null) {
            found.put(id, Outcome.ofDeadLetter(text(record, Headers.ERROR_CODE)));
        }
    }

    private static String text(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
