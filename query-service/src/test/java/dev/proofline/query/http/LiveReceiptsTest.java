package dev.proofline.query.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.proofline.reputation.TestReceipts;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.CorrelatedReplies;
import dev.proofline.schemas.InMemorySchemaRegistry;
import dev.proofline.schemas.avro.Receipt;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class LiveReceiptsTest {
    private final AvroSerde<Receipt> serde = new AvroSerde<>(new InMemorySchemaRegistry(), Receipt.getClassSchema());

    private static CorrelatedReplies.Reply onReceiptsTopic(byte[] value) {
        return new CorrelatedReplies.Reply(true, null, "seller", value, 0, 0);
    }

    /**
     * Anyone who may write to the receipts topic can put bytes there that are no receipt. Decoding
     * them once ended the feed: the ticker's task threw, and a scheduled task that throws never runs
     * again.
     */
    @Test
    void bytesThatAreNoReceiptAreNeitherShownNorCountedAndTheNextReceiptsAre() {
        try (LiveReceipts feed = new LiveReceipts(
                serde, token -> java.util.Optional.empty(), 10, Duration.ofMinutes(5), Duration.ofHours(1))) {
            Receipt receipt = Receipt.newBuilder(TestReceipts.receipt(1, "seller", "pass"))
                    .setSignedJson("{\"verification_id\":\"id-1\"}")
                    .build();
            feed.accept(onReceiptsTopic("not avro".getBytes(StandardCharsets.UTF_8)));
            feed.accept(onReceiptsTopic(new byte[] {0, 0, 0, 0, 1, 9, 9}));
            feed.accept(onReceiptsTopic(new byte[] {0, 0, 0, 0x7f, 0x7f, 9, 9}));
            feed.accept(onReceiptsTopic(serde.serialize("proofline.receipts", receipt)));

            JsonNode event = JsonMapper.builder().build().readTree(feed.takeEvent());
            assertEquals(1, event.get("count").asLong());
            assertEquals(1, event.get("receipts").size());
            assertEquals(
                    "id-1", event.get("receipts").get(0).get("verification_id").asString());
            assertNull(feed.takeEvent(), "nothing landed since");

            feed.accept(onReceiptsTopic("still not avro".getBytes(StandardCharsets.UTF_8)));
            assertNull(feed.takeEvent(), "only a foreign record landed");
        }
    }
}
