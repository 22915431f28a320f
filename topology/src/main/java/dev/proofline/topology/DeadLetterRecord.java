package dev.proofline.topology;

import dev.proofline.contract.CorrelationIds;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.Headers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The dead letter of a request ({@code docs/kafka.md}): its error document as the value; the
 * request's key, time and headers; the original bytes and where they came from as Proofline's
 * headers, each exactly once.
 *
 * <p>It must fit the dead-letter topic. Proofline creates that topic with room for a request of
 * twice {@code max.request.bytes} and its error, but a topic created before may take less (the
 * broker's 1 MB default): a dead letter the topic refuses would fail its transaction, and the
 * record would be read, refused and retried for ever. So what does not fit is left out, said in
 * {@code proofline.original.omitted}: the original value first, then the request's own headers
 * (all but a valid correlation id, which its caller waits on), then its key.
 */
final class DeadLetterRecord {
    /** The headers Proofline sets: a producer's own copies are dropped, not passed on beside ours. */
    static final List<String> PROVENANCE = List.of(
            Headers.ORIGINAL_VALUE,
            Headers.ORIGINAL_OMITTED,
            Headers.SOURCE_TOPIC,
            Headers.SOURCE_PARTITION,
            Headers.SOURCE_OFFSET,
            Headers.ERROR_CODE);
    /** Kafka's framing of one record in a batch of its own, with its headers' lengths, generously. */
    private static final int FRAMING_BYTES = 1024;

    private DeadLetterRecord() {}

    static Record<Object, Object> of(
            Record<byte[], byte[]> request, byte[] value, RecordMetadata source, ErrorDocument error, int maxBytes) {
        byte[] document = error.toJson().toString().getBytes(StandardCharsets.UTF_8);
        RecordHeaders headers = new RecordHeaders(request.headers().toArray());
        PROVENANCE.forEach(headers::remove);
        byte[] key = request.key();
        long fixed = FRAMING_BYTES + document.length + 64; // + provenance
        String omitted = null;
        if (fixed + length(key) + size(headers) + length(value) > maxBytes) {
            omitted = "value";
            if (fixed + length(key) + size(headers) > maxBytes) {
                // A correlation id longer than any valid one was refused for it: its caller waits on nothing.
                Header correlation = headers.lastHeader(Headers.CORRELATION_ID);
                headers = new RecordHeaders();
                if (correlation != null && length(correlation.value()) <= CorrelationIds.MAX_BYTES) {
                    headers.add(correlation);
                }
                omitted = "value,headers";
                if (fixed + length(key) + size(headers) > maxBytes) {
                    key = null;
                    omitted = "value,headers,key";
                }
            }
        }
        if (omitted == null) {
            headers.add(Headers.ORIGINAL_VALUE, value);
        } else {
            headers.add(Headers.ORIGINAL_OMITTED, omitted.getBytes(StandardCharsets.UTF_8));
        }
        headers.add(Headers.SOURCE_TOPIC, source.topic().getBytes(StandardCharsets.UTF_8));
        headers.add(
                Headers.SOURCE_PARTITION,
                ByteBuffer.allocate(4).putInt(source.partition()).array());
        headers.add(
                Headers.SOURCE_OFFSET,
                ByteBuffer.allocate(8).putLong(source.offset()).array());
        headers.add(Headers.ERROR_CODE, error.code().code().getBytes(StandardCharsets.UTF_8));
        return new Record<>(key, document, request.timestamp(), headers);
    }

    private static long size(RecordHeaders headers) {
        long size = 0;
        for (Header header : headers) {
            size += header.key().length() * 3L + length(header.value()) + 10;
        }
        return size;
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }
}
