package dev.proofline.contract;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * What a request record's {@code proofline.correlation-id} header may be: UTF-8 text of at most
 * {@link #MAX_BYTES} bytes. The receipt carries it twice (a field and a header), so a longer one
 * could make the receipt too large for its topic, and the record could then never be answered; one
 * that is not UTF-8 would come back as other bytes, which its caller would never match. Either is
 * dead-lettered, the header kept, so the caller still finds its answer; so is a record with more
 * than one. The pipeline and replay both judge it here.
 */
public final class CorrelationIds {
    /** Room for any id a caller needs (Proofline's own are 36-character UUIDs). */
    public static final int MAX_BYTES = 1024;

    private CorrelationIds() {}

    /** The header as text; null when there is none (or it has no value). */
    public static String of(byte[] header) {
        return header == null ? null : new String(header, StandardCharsets.UTF_8);
    }

    /**
     * Why a record with these {@code proofline.correlation-id} header values (in order) cannot be
     * answered, if it cannot. More than one is refused: which one a caller waits on is a guess, and
     * judging only the last let an invalid first one through unanswered.
     */
    public static Optional<ErrorDocument> problem(List<byte[]> headerValues) {
        if (headerValues.size() > 1) {
            return refuse("is sent more than once");
        }
        return problem(headerValues.isEmpty() ? null : headerValues.get(0));
    }

    /** Why this header cannot be answered with, if it cannot. */
    public static Optional<ErrorDocument> problem(byte[] header) {
        if (header == null) {
            return Optional.empty();
        }
        if (header.length > MAX_BYTES) {
            return refuse("is longer than " + MAX_BYTES + " bytes");
        }
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(header));
            return Optional.empty();
        } catch (CharacterCodingException e) {
            return refuse("is not UTF-8");
        }
    }

    private static Optional<ErrorDocument> refuse(String problem) {
        return Optional.of(ErrorDocument.invalidRequest(List.of(new FieldProblem(
                Headers.CORRELATION_ID,
                problem,
                "Use a UTF-8 id of at most " + MAX_BYTES + " bytes, such as a random UUID."))));
    }
}
