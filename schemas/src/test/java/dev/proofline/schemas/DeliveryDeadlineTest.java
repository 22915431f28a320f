package dev.proofline.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** Kafka takes every combination: a producer is built with each (no broker is needed for that). */
class DeliveryDeadlineTest {
    @Test
    void theDeliveryTimeoutIsTheWaitAndTheRequestTimeoutFitsInIt() {
        Map<String, Object> config = settled(Map.of(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "40000"), 10);
        assertEquals(10_000, config.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
        assertEquals(9_995, config.get(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG));
    }

    @Test
    void aLongLingerOrAShortWaitStillMakesAProducer() {
        Map<String, Object> shortWait = settled(Map.of(), 1);
        assertEquals(1_005, shortWait.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
        assertEquals(1_000, shortWait.get(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG));
        Map<String, Object> longLinger = settled(Map.of(ProducerConfig.LINGER_MS_CONFIG, " 5000 "), 1);
        assertEquals(6_000, longLinger.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
        Map<String, Object> longWait = settled(Map.of(), 3_600);
        assertEquals(3_600_000, longWait.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
        assertEquals(30_000, longWait.get(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG));
    }

    private static Map<String, Object> settled(Map<String, Object> given, int waitSeconds) {
        Map<String, Object> config = new HashMap<>(given);
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        DeliveryDeadline.within(config, Duration.ofSeconds(waitSeconds));
        new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()).close(Duration.ZERO);
        return config;
    }
}
