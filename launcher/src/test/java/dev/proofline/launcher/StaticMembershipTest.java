package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proofline's own Streams settings, each of which its operator may change: static membership, the
 * producers' batch size, how long a pass may keep a transaction open.
 */
class StaticMembershipTest {
    @TempDir
    Path tmp;

    @Test
    void theMembersNameIsTheInstanceIdKeptInTheDataDir() throws Exception {
        Properties props = streamsProperties(Map.of());
        String id = InstanceId.of(tmp);
        assertEquals("proofline-" + id, props.get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
        assertEquals(id, InstanceId.of(tmp), "kept, so a restart takes the same place");
    }

    @Test
    void anOperatorMayRenameItOrTurnItOff() throws Exception {
        assertEquals(
                "edge-7",
                streamsProperties(Map.of("streams.group.instance.id", "edge-7"))
                        .get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
        Properties off = streamsProperties(Map.of("streams.group.instance.id", ""));
        assertFalse(off.containsKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), off.toString());
        // Kafka Streams accepts what is left: dynamic membership.
        new StreamsConfig(off);
    }

    @Test
    void streamsProducersBatchLargerThanKafkasDefaultUnlessTheOperatorSaysOtherwise() throws Exception {
        String batchSize = StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG);
        assertEquals(
                ProoflineNode.STREAMS_BATCH_BYTES, streamsProperties(Map.of()).get(batchSize));
        assertEquals(
                "16384",
                streamsProperties(Map.of("streams." + batchSize, "16384")).get(batchSize));
        // Several dead letters in one batch must still fit the dead-letter topic's limit.
        Properties small = streamsProperties(Map.of("max.request.bytes", "8192"));
        int deadLetterLimit = TopicProvisioner.deadLetterBytes(8192);
        assertEquals(deadLetterLimit - 1024, small.get(batchSize));
        assertTrue((int) small.get(batchSize) < deadLetterLimit);
    }

    /** A receipts topic made small by its operator bounds the batch too; the largest receipt still leaves the producer. */
    @Test
    void streamsProducersFitEveryRecordTheyWriteAndTheirTransactionsOutlastASlowPass() throws Exception {
        Map<String, String> all =
                new java.util.HashMap<>(Map.of("data-dir", tmp.toString(), "max.request.bytes", "1024"));
        ProoflineSettings settings = ProoflineSettings.resolve(ProoflineConfig.load(all, Map.of()), tmp);
        Properties props = ProoflineNode.streamsProperties(
                settings,
                "127.0.0.1:9092",
                InstanceId.of(settings.dataDir()),
                Map.of(),
                new dev.proofline.topology.TopicLimits(20_000, Integer.MAX_VALUE));
        assertEquals(20_000 - 1024, props.get(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG)));
        assertTrue(
                (int) props.get(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG))
                        >= dev.proofline.topology.Receipts.LARGEST_RECORD_BYTES,
                "a small max.request.bytes may still get the largest receipt");
        assertEquals(
                ProoflineNode.STREAMS_TRANSACTION_TIMEOUT_MS,
                props.get(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG)));
        new StreamsConfig(props);
    }

    /** A pass is cut after a third of the transaction timeout, but never within two commit intervals. */
    @Test
    void aPassMayRunAThirdOfTheTransactionTimeout() throws Exception {
        assertEquals(Duration.ofSeconds(15), ProoflineNode.longestPass(streamsProperties(Map.of())));
        assertEquals(
                Duration.ofSeconds(20),
                ProoflineNode.longestPass(
                        streamsProperties(Map.of("streams.producer.transaction.timeout.ms", "60000"))));
        assertEquals(
                Duration.ofSeconds(24),
                ProoflineNode.longestPass(streamsProperties(Map.of("streams.commit.interval.ms", "12000"))));
    }

    /** A stream thread is failed on purpose when a pass runs too long; a handler that continued would skip a record. */
    @Test
    void aProcessingExceptionHandlerThatSkipsRecordsIsRefused() throws Exception {
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> streamsProperties(Map.of(
                        "streams.processing.exception.handler",
                        "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler")));
        assertTrue(refused.getMessage().contains("may skip records"), refused.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> streamsProperties(Map.of(
                        "client.processing.exception.handler",
                        "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler")),
                "nor through the settings every client takes");
        streamsProperties(Map.of(
                "streams.processing.exception.handler",
                "org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler"));
    }

    /** Kafka Streams names each thread's static member after the instance's, or the main consumer's own. */
    @Test
    void eachStreamThreadsStaticMemberIsKnownByItsNumber() throws Exception {
        String id = "proofline-" + InstanceId.of(tmp);
        assertEquals(
                Optional.of(id + "-3"),
                ProoflineNode.staticMembers(streamsProperties(Map.of())).apply(3));
        assertEquals(
                Optional.of("edge-7-1"),
                ProoflineNode.staticMembers(
                                streamsProperties(Map.of("streams.main.consumer.group.instance.id", "edge-7")))
                        .apply(1));
        assertEquals(
                Optional.empty(),
                ProoflineNode.staticMembers(streamsProperties(Map.of("streams.group.instance.id", "")))
                        .apply(1));
        // A replaced thread is found by its name, as Kafka Streams gives it.
        ReplacedThreadMembers members =
                new ReplacedThreadMembers(null, "proofline", ProoflineNode.staticMembers(streamsProperties(Map.of())));
        assertEquals(Optional.of(id + "-12"), members.member("proofline-0a1b-StreamThread-12"));
        assertEquals(Optional.empty(), members.member("proofline-0a1b-GlobalStreamThread"));
    }

    private Properties streamsProperties(Map<String, String> flags) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(flags);
        all.put("data-dir", tmp.toString());
        ProoflineSettings settings = ProoflineSettings.resolve(ProoflineConfig.load(all, Map.of()), tmp);
        return ProoflineNode.streamsProperties(settings, "127.0.0.1:9092", InstanceId.of(settings.dataDir()), Map.of());
    }
}
