package dev.proofline.schemas;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Producer settings under which Kafka gives up on a write by the time its caller stops waiting.
 *
 * <p>Why: a caller who waits for a request's receipt is told "not published" (or "timeout") when its
 * wait ends. Kafka's producer would otherwise keep retrying the write for its default two minutes
 * and make it later all the same, and the caller's retry would then be verified a second time. Kafka
 * lets the delivery timeout be no shorter than the linger plus one request's timeout, so the request
 * timeout shrinks to fit.
 */
public final class DeliveryDeadline {
    /** Kafka's default {@code linger.ms}. */
    private static final long DEFAULT_LINGER_MS = 5;

    private DeliveryDeadline() {}

    /**
     * Sets {@code delivery.timeout.ms} to {@code wait} (at least the linger plus a second) and
     * {@code request.timeout.ms} to fit in it, over whatever the settings said.
     */
    public static void within(Map<String, Object> producerConfig, Duration wait) {
        Object lingerSetting = producerConfig.get(ProducerConfig.LINGER_MS_CONFIG);
        long linger = lingerSetting == null
                ? DEFAULT_LINGER_MS
                : Long.parseLong(lingerSetting.toString().trim());
        long delivery = Math.min(Integer.MAX_VALUE, Math.max(wait.toMillis(), linger + 1_000));
        producerConfig.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) delivery);
        producerConfig.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(30_000, delivery - linger));
    }
}
