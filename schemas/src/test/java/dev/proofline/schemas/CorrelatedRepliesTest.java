package dev.proofline.schemas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.contract.Headers;
import dev.proofline.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The correlated-reply reader against Kafka's own {@link MockConsumer}: no broker, real consumer contract. */
class CorrelatedRepliesTest {
    private static final Topics TOPICS = Topics.defaults();
    private static final TopicPartition RECEIPTS = new TopicPartition(TOPICS.receipts(), 0);
    private static final TopicPartition DEAD_LETTERS = new TopicPartition(TOPICS.deadLetter(), 0);

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("latest");
    private final List<CorrelatedReplies.Reply> seen = new CopyOnWriteArrayList<>();
    private CorrelatedReplies replies;

    @AfterEach
    void close() throws InterruptedException {
        if (replies != null) {
            replies.close();
        }
    }

    private CorrelatedReplies start(boolean deadLetters, List<TopicPartition> partitions) {
        consumer.updateEndOffsets(Map.of(RECEIPTS, 0L, DEAD_LETTERS, 0L));
        consumer.schedulePollTask(() -> consumer.rebalance(partitions));
        return new CorrelatedReplies(consumer, TOPICS, deadLetters, seen::add, "test-replies");
    }

    private static ConsumerRecord<byte[], byte[]> record(
            TopicPartition at, long offset, String correlationId, String value) {
        ConsumerRecord<byte[], byte[]> record =
                new ConsumerRecord<>(at.topic(), at.partition(), offset, null, value.getBytes(StandardCharsets.UTF_8));
        if (correlationId != null) {
            record.headers().add(Headers.CORRELATION_ID, correlationId.getBytes(StandardCharsets.UTF_8));
        }
        return record;
    }

    @Test
    void aWaitingCallerGetsTheReceiptCarryingItsCorrelationId() throws Exception {
        replies = start(true, List.of(RECEIPTS, DEAD_LETTERS));
        assertEquals(
                List.of(RECEIPTS, DEAD_LETTERS).size(), consumer.assignment().size(), "assigned before returning");
        CompletableFuture<CorrelatedReplies.Reply> mine = replies.expect("c-1");
        CompletableFuture<CorrelatedReplies.Reply> other = replies.expect("c-2");
        consumer.schedulePollTask(() -> {
            consumer.addRecord(record(RECEIPTS, 0, "c-1", "receipt-1"));
            consumer.addRecord(record(RECEIPTS, 1, null, "receipt-without-caller"));
        });
        CorrelatedReplies.Reply reply = mine.get(5, TimeUnit.SECONDS);
        assertTrue(reply.isReceipt());
        assertEquals("c-1", reply.correlationId());
        assertArrayEquals("receipt-1".getBytes(StandardCharsets.UTF_8), reply.value());
        assertFalse(other.isDone(), "another caller's reply has not come");
        assertEquals(1, replies.waitingCount(), "a completed caller is no longer waiting");
    }

    @Test
    void deadLettersCompleteTheirCallerAndEveryRecordReachesTheListener() throws Exception {
        replies = start(true, List.of(RECEIPTS, DEAD_LETTERS));
        CompletableFuture<CorrelatedReplies.Reply> refused = replies.expect("c-9");
        consumer.schedulePollTask(() -> {
            consumer.addRecord(record(RECEIPTS, 0, null, "r0"));
            consumer.addRecord(record(DEAD_LETTERS, 0, "c-9", "{\"code\":\"invalid_request\"}"));
        });
        CorrelatedReplies.Reply reply = refused.get(5, TimeUnit.SECONDS);
        assertFalse(reply.isReceipt());
        assertEquals("{\"code\":\"invalid_request\"}", reply.text());
        assertEquals(2, seen.size(), "the listener saw both records");
        assertNull(seen.get(0).correlationId());
    }

    @Test
    void aCallerWhoForgetsIsNotCompletedAndAFailingListenerStopsNothing() throws Exception {
        consumer.updateEndOffsets(Map.of(RECEIPTS, 0L));
        consumer.schedulePollTask(() -> consumer.rebalance(List.of(RECEIPTS)));
        replies = new CorrelatedReplies(
                consumer,
                TOPICS,
                false,
                r -> {
                    throw new IllegalStateException("listener fault");
                },
                "test-replies");
        CompletableFuture<CorrelatedReplies.Reply> gaveUp = replies.expect("c-1");
        replies.forget("c-1");
        CompletableFuture<CorrelatedReplies.Reply> later = replies.expect("c-2");
        consumer.schedulePollTask(() -> {
            consumer.addRecord(record(RECEIPTS, 0, "c-1", "first"));
            consumer.addRecord(record(RECEIPTS, 1, "c-2", "second"));
        });
        assertEquals("second", later.get(5, TimeUnit.SECONDS).text());
        assertFalse(gaveUp.isDone());
    }

    /** A poll that fails (an authorization error, say) must not end the reader: later replies still come. */
    @Test
    void aFailingPollIsTriedAgainAndLaterRepliesStillArrive() throws Exception {
        replies = start(false, List.of(RECEIPTS));
        CompletableFuture<CorrelatedReplies.Reply> waiting = replies.expect("after-failure");
        consumer.setPollException(new org.apache.kafka.common.errors.TopicAuthorizationException("not allowed"));
        consumer.schedulePollTask(() -> consumer.addRecord(record(RECEIPTS, 0, "after-failure", "came anyway")));
        assertEquals("came anyway", waiting.get(10, TimeUnit.SECONDS).text());
    }

    @Test
    void recordsReadWhileJoiningAreDeliveredNotDropped() throws Exception {
        consumer.updateBeginningOffsets(Map.of(RECEIPTS, 0L));
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(RECEIPTS));
            consumer.seek(RECEIPTS, 0);
            consumer.addRecord(record(RECEIPTS, 0, "early", "already there"));
        });
        replies = new CorrelatedReplies(consumer, TOPICS, false, seen::add, "test-replies");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (seen.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(1, seen.size());
        assertEquals("already there", seen.get(0).text());
    }
}
