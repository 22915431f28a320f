package dev.proofline.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
     * Whatever a record on the input topic says its agent and task are, the replay keeps an agent id
     * only when it is one (the summary prints them to a terminal) and a task id only of a length a
     * request may have (it keeps a few hundred bytes per request).
     */
    @Test
    void onlyIdsARequestMayHaveAreKept() throws Exception {
        Replay replay = replay();
        String escape = "\\u001b]0;owned\\u0007\\u001b[2J";
        String longTask = "t".repeat(1_000_000);
        byte[] hostile = ("{\"task_id\":\"" + longTask + "\",\"agent_id\":\"" + escape + "\",\"expected_schema\":"
                        + "{\"type\":\"object\"},\"submitted_output\":{\"total\":1}}")
                .getBytes(StandardCharsets.UTF_8);
        Replayed replayed = replay.replay(record(null, hostile));
        assertEquals(Outcome.INVALID, replayed.candidate().result(), "the pipeline refuses it too");
        assertNull(replayed.agentId());
        assertNull(replayed.taskId());
        Replayed ordinary = replay.replay(record(null));
        assertEquals("seller", ordinary.agentId());
        assertEquals("t", ordinary.taskId());
    }
}
