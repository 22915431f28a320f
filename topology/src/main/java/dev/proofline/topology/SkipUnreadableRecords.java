package dev.proofline.topology;

import dev.proofline.schemas.SchemaRegistryException;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A record that cannot be read as what its topic holds (bytes on the receipts topic that are not a
 * receipt in the Confluent wire format) is not Proofline's: it is skipped with one log line, never
 * its content. Kafka Streams' default fails the stream thread, and its replacement reads the same
 * record and fails again, so one foreign record would stop every task on that partition. Requests
 * never come here: the input topic is read as bytes, and every request ends as a receipt or a dead
 * letter.
 *
 * <p>A schema id the registry does not have (40403) is foreign too: the embedded registry looks for
 * an unknown id in its topic before it says so, and a Confluent registry stores a schema before it
 * gives out its id. Any other registry failure is not proof of a foreign record: the registry may
 * be unreachable, or its topic unreadable for a moment. That fails, so Streams retries the record
 * (the thread is replaced) instead of dropping a receipt it could read later.
 *
 * <p>Every Proofline topology's {@code deserialization.exception.handler}.
 */
public final class SkipUnreadableRecords implements DeserializationExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(SkipUnreadableRecords.class);
    /** Confluent's "schema not found". */
    private static final int SCHEMA_NOT_FOUND = 40403;

    @Override
    public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception e) {
        if (registryFailed(e)) {
            return Response.fail();
        }
        LOG.warn(
                "skipped a record that is not what {} holds, at {}-{}@{}: {}",
                context.topic(),
                context.topic(),
                context.partition(),
                context.offset(),
                unknownSchema(e)
                        ? "a schema id the registry does not have"
                        : e.getClass().getSimpleName());
        return Response.resume();
    }

    /** Whether the registry, not the bytes, may be why the record could not be read. */
    static boolean registryFailed(Throwable e) {
        SchemaRegistryException registry = registryException(e);
        return registry != null && registry.errorCode() != SCHEMA_NOT_FOUND;
    }

    private static boolean unknownSchema(Throwable e) {
        SchemaRegistryException registry = registryException(e);
        return registry != null && registry.errorCode() == SCHEMA_NOT_FOUND;
    }

    private static SchemaRegistryException registryException(Throwable e) {
        Throwable cause = e;
        for (int depth = 0; cause != null && depth < 8; depth++, cause = cause.getCause()) {
            if (cause instanceof SchemaRegistryException registry) {
                return registry;
            }
        }
        return null;
    }

    @Override
    public void configure(Map<String, ?> configs) {}
}
