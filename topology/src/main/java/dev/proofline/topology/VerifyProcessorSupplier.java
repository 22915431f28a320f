package dev.proofline.topology;

import dev.proofline.engine.VerificationEngine;
import java.time.Clock;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;

/** One {@link VerifyProcessor} per task, all sharing the thread-safe engine. */
final class VerifyProcessorSupplier implements ProcessorSupplier<byte[], byte[], Object, Object> {
    private final VerificationEngine engine;
    private final Clock clock;
    private final PipelineListener listener;
    private final Attribution attribution;
    private final EagerCommit eagerCommit;
    private final TopicLimits limits;
    private final PassLimit passLimit;

    VerifyProcessorSupplier(
            VerificationEngine engine,
            Clock clock,
            PipelineListener listener,
            Attribution attribution,
            EagerCommit eagerCommit,
            TopicLimits limits,
            PassLimit passLimit) {
        this.passLimit = passLimit;
        this.engine = engine;
        this.clock = clock;
        this.listener = listener;
        this.attribution = attribution;
        this.eagerCommit = eagerCommit;
        this.limits = limits;
    }

    @Override
    public Processor<byte[], byte[], Object, Object> get() {
        return new VerifyProcessor(engine, clock, listener, attribution, eagerCommit, limits, passLimit);
    }
}
