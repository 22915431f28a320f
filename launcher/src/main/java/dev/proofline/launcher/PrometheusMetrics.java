package dev.proofline.launcher;

import dev.proofline.query.http.RouteGroup;
import dev.proofline.topology.PipelineListener;
import io.javalin.config.JavalinConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;

/**
 * {@code GET /metrics} in the Prometheus text format: verifications by result, dead letters by
 * error code, the verification latency histogram, and Kafka Streams' own metrics (consumer lag
 * among them, as {@code kafka_consumer_fetch_manager_records_lag_max}).
 */
final class PrometheusMetrics
        implements PipelineListener, dev.proofline.query.payment.PaymentListener, RouteGroup, AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final java.util.List<java.util.function.LongSupplier> forgeryCounts =
            new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Counter passes = Counter.builder("proofline.verifications")
            .tag("result", "pass")
            .description("receipts signed, by result")
            .register(registry);
    private final Counter fails = Counter.builder("proofline.verifications")
            .tag("result", "fail")
            .description("receipts signed, by result")
            .register(registry);
    private final Timer latency = Timer.builder("proofline.verification.duration")
            .description("time to verify and sign one request")
            .publishPercentileHistogram()
            .register(registry);
    private final Counter receiptsTooLarge = Counter.builder("proofline.receipts.too.large")
            .description("requests dead-lettered (verification_failed) because their receipt was larger than the"
                    + " receipts topic takes")
            .register(registry);
    private final Counter threadsReplaced = Counter.builder("proofline.stream.threads.replaced")
            .description("stream threads that died and were replaced, passes cut short included")
            .register(registry);
    private final Counter passesCut = Counter.builder("proofline.stream.passes.cut")
            .description("passes whose transaction had been open too long, ended by replacing their stream thread")
            .register(registry);
    private KafkaStreamsMetrics streamsMetrics;

    void threadReplaced() {
        threadsReplaced.increment();
    }

    void passCut() {
        passesCut.increment();
    }

    void bind(KafkaStreams streams) {
        streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(registry);
    }

    @Override
    public void mount(JavalinConfig cfg) {
        cfg.routes.get(
                "/metrics",
                ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
                        .result(registry.scrape()));
    }

    /**
     * Records that claimed a submitter, or a callers-topic record, without this deployment's secret:
     * someone with write access to Kafka tried to pass as the front door or to mint a key.
     */
    public void countForgeries(
            java.util.function.LongSupplier submitterHeaders, java.util.function.LongSupplier callerRecords) {
        // Micrometer holds a function counter's object weakly: keep the suppliers here, or they vanish.
        forgeryCounts.add(submitterHeaders);
        forgeryCounts.add(callerRecords);
        io.micrometer.core.instrument.FunctionCounter.builder(
                        "proofline.forged.submitter.headers", submitterHeaders, s -> s.getAsLong())
                .description("request records whose submitter header did not verify (attributed to Kafka)")
                .register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder(
                        "proofline.forged.caller.records", callerRecords, s -> s.getAsLong())
                .description("callers-topic records ignored because their HMAC did not verify")
                .register(registry);
    }

    @Override
    public void paid() {
        Counter.builder("proofline.payments")
                .tag("stage", "accepted")
                .register(registry)
                .increment();
    }

    @Override
    public void settled(String transaction) {
        Counter.builder("proofline.payments")
                .tag("stage", "settled")
                .register(registry)
                .increment();
    }

    @Override
    public void refused(String code) {
        Counter.builder("proofline.payments.refused")
                .tag("code", code)
                .register(registry)
                .increment();
    }

    @Override
    public void verified(String result, long nanos) {
        ("pass".equals(result) ? passes : fails).increment();
        latency.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void receiptTooLarge() {
        receiptsTooLarge.increment();
    }

    @Override
    public void deadLettered(String errorCode) {
        Counter.builder("proofline.dead.letters")
                .tag("code", errorCode)
                .description("records sent to the dead-letter topic")
                .register(registry)
                .increment();
    }

    @Override
    public void close() {
        if (streamsMetrics != null) {
            streamsMetrics.close();
        }
        registry.close();
    }
}
