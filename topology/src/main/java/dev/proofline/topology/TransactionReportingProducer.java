package dev.proofline.topology;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metrics.KafkaMetric;

/** A stream thread's producer that tells {@link OpenTransactions} when its transactions begin and end. */
final class TransactionReportingProducer implements Producer<byte[], byte[]> {
    private final Producer<byte[], byte[]> producer;
    private final OpenTransactions transactions;

    TransactionReportingProducer(Producer<byte[], byte[]> producer, OpenTransactions transactions) {
        this.producer = producer;
        this.transactions = transactions;
    }

    @Override
    public void beginTransaction() {
        producer.beginTransaction();
        transactions.began();
    }

    @Override
    public void commitTransaction() {
        try {
            producer.commitTransaction();
        } finally {
            transactions.ended(); // committed, or failed and about to be aborted: either way this one is over
        }
    }

    @Override
    public void abortTransaction() {
        try {
            producer.abortTransaction();
        } finally {
            transactions.ended();
        }
    }

    @Override
    public void initTransactions() {
        transactions.ended(); // a producer made anew after its thread was fenced starts with none open
        producer.initTransactions();
    }

    @Override
    public void sendOffsetsToTransaction(
            Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata groupMetadata) {
        producer.sendOffsetsToTransaction(offsets, groupMetadata);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
        return producer.send(record);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
        return producer.send(record, callback);
    }

    @Override
    public void flush() {
        producer.flush();
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) {
        return producer.partitionsFor(topic);
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return producer.metrics();
    }

    @Override
    public void registerMetricForSubscription(KafkaMetric metric) {
        producer.registerMetricForSubscription(metric);
    }

    @Override
    public void unregisterMetricFromSubscription(KafkaMetric metric) {
        producer.unregisterMetricFromSubscription(metric);
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        return producer.clientInstanceId(timeout);
    }

    @Override
    public void close() {
        transactions.ended();
        producer.close();
    }

    @Override
    public void close(Duration timeout) {
        transactions.ended();
        producer.close(timeout);
    }
}
