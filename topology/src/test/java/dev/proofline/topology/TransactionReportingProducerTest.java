package dev.proofline.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class TransactionReportingProducerTest {
    private final AtomicLong nanos = new AtomicLong(1_000);
    private final OpenTransactions transactions = new OpenTransactions(nanos::get);
    private final MockProducer<byte[], byte[]> kafka =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final TransactionReportingProducer producer = new TransactionReportingProducer(kafka, transactions);

    @Test
    void aTransactionIsOpenFromItsBeginToItsCommitOrAbort() {
        producer.initTransactions();
        assertEquals(0, transactions.openNanos());
        producer.beginTransaction();
        producer.send(new ProducerRecord<>("receipts", new byte[] {1}));
        nanos.addAndGet(500);
        assertEquals(500, transactions.openNanos());
        producer.commitTransaction();
        assertEquals(0, transactions.openNanos());
        assertTrue(kafka.transactionCommitted(), "the real producer did the work");

        producer.beginTransaction();
        nanos.addAndGet(700);
        assertEquals(700, transactions.openNanos());
        producer.abortTransaction();
        assertEquals(0, transactions.openNanos());
        assertTrue(kafka.transactionAborted());
    }

    @Test
    void aFailedCommitEndsTheTransactionToo() {
        producer.initTransactions();
        producer.beginTransaction();
        kafka.commitTransactionException = new KafkaException("fenced");
        assertThrows(KafkaException.class, producer::commitTransaction);
        assertEquals(0, transactions.openNanos());
    }

    @Test
    void aFencedProducerClosedWithoutAnAbortLeavesNoneOpen() {
        producer.initTransactions();
        producer.beginTransaction();
        nanos.addAndGet(900);
        // Fenced, the old producer is closed without an abort Kafka would take.
        producer.close();
        assertEquals(0, transactions.openNanos());
    }

    @Test
    void aProducerMadeAnewOnTheSameThreadStartsWithNoneOpen() {
        producer.initTransactions();
        producer.beginTransaction();
        nanos.addAndGet(900);
        TransactionReportingProducer next = new TransactionReportingProducer(
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer()), transactions);
        next.initTransactions();
        assertEquals(0, transactions.openNanos());
    }
}
