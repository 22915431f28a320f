package dev.proofline.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.CorrelationIds;
import dev.proofline.contract.Headers;
import dev.proofline.schemas.VerificationIds;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** One request record replayed as the pipeline treats it, headers included. */
class ReplayOneRecordTest {
    private static final byte[] REQUEST = ("{\"task_id\":\"t\",\"agent_id\":\"seller\",\"expected_schema\":"
                    + "{\"type\":\"object\"},\"submitted_output\":{\"total\":1}}")
            .getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private Replay replay() throws Exception {
        Path rules =
                Files.writeString(dir.resolve("rules.json"), "[{\"type\":\"gte\",\"field\":\"total\",\"value\":0}]");
        return Replay.builder()
                .kafka(Map.of("bootstrap.servers", "127.0.0.1:1"))
                .range("0", "end")
                .candidate(CandidateRules.read(Optional.of(rules), Optional.empty()))
                .verificationIds(new VerificationIds(new byte[32]))
                .receipts((topic, bytes) -> null)
                .build();
    }

    private static ConsumerRecord<byte[], byte[]> record(byte[] correlationId) {
        return record(correlationId, REQUEST);
    }

    private static ConsumerRecord<byte[], byte[]> record(byte[] correlationId, byte[] request) {
        RecordHeaders headers = new RecordHeaders();
        if (correlationId != null) {
            headers.add(Headers.CORRELATION_ID, correlationId);
        }
        return new ConsumerRecord<>(
                "verification-requests",
                0,
                7,
                1_000L,
                TimestampType.CREATE_TIME,
                -1,
                request.length,
                null,
                request,
                headers,
                Optional.empty());
    }

    @Test
    void aCorrelationIdThePipelineRefusesIsADeadLetterInReplayToo() throws Exception {
        Replay replay = replay();
        assertEquals("pass", replay.replay(record(null)).candidate().result());
        assertEquals(
                "pass",
                replay.replay(record("c-1".getBytes(StandardCharsets.UTF_8)))
                        .candidate()
                        .result());
        for (byte[] refused : new byte[][] {new byte[CorrelationIds.MAX_BYTES + 1], {(byte) 0xC3}}) {
            Outcome outcome = replay.replay(record(refused)).candidate();
            assertEquals(Outcome.INVALID, outcome.result());
            assertEquals("invalid_request", outcome.errorCode());
        }
    }

    /**
     * Whatever a record on the input topic says its agent and task are, the replay keeps ids only of
     * a length a request may have (it keeps a few hundred bytes per request), and its summary shows an
     * agent id with what a terminal would act on escaped.
     */
    @Test
    void idsAreKeptOnlyAtARequestsLengthAndPrintedHarmless() throws Exception {
        Replay replay = replay();
        String escape = "\u001b]0;owned\u0007\u001b[2J\u202e";
        String huge = "t".repeat(1_000_000);
        Replayed longIds = replay.replay(record(null, request(huge, huge)));
        assertEquals(Outcome.INVALID, longIds.candidate().result(), "the pipeline refuses it too");
        assertNull(longIds.agentId());
        assertNull(longIds.taskId());
        // An id the old rules allowed (control characters were refused later) is counted as it was.
        Replayed escaped = replay.replay(record(null, request("t", escape)));
        assertEquals(escape, escaped.agentId());
        String shown = ReplayReport.printable(escape);
        assertEquals("\\u001b]0;owned\\u0007\\u001b[2J\\u202e", shown);
        assertTrue(shown.codePoints().noneMatch(c -> Character.isISOControl(c) || c == 0x202e), shown);
        Replayed ordinary = replay.replay(record(null));
        assertEquals("seller", ordinary.agentId());
        assertEquals("t", ordinary.taskId());
    }

    private static byte[] request(String taskId, String agentId) {
        ObjectNode request = StrictJson.NODES.objectNode();
        request.put("task_id", taskId);
        request.put("agent_id", agentId);
        request.putObject("expected_schema").put("type", "object");
        request.putObject("submitted_output").put("total", 1);
        return request.toString().getBytes(StandardCharsets.UTF_8);
    }
}
