package dev.proofline.access;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proofline.attestor.DeploymentSecret;
import dev.proofline.attestor.Sha256;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class SubmitterStampTest {
    private static final byte[] SECRET = "a deployment secret of 32 bytes!".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BODY = "{\"task_id\":\"t-1\"}".getBytes(StandardCharsets.UTF_8);

    private final SubmitterStamp stamp = new SubmitterStamp(DeploymentSecret.of(SECRET));

    private static Headers stamped(SubmitterStamp stamp, Submitter submitter, byte[] body) {
        Headers headers = new RecordHeaders();
        stamp.stamp(headers, submitter, body);
        return headers;
    }

    @Test
    void theStampIsTheHmacOfTheNameAndTheBodysSha256UnderTheSubmitterKey() {
        // The documented form, so records stamped by any earlier version still verify.
        byte[] name = Submitter.key("alice").id().getBytes(StandardCharsets.UTF_8);
        byte[] digest = Sha256.digest(BODY, 0, BODY.length);
        byte[] message = new byte[name.length + 1 + digest.length];
        System.arraycopy(name, 0, message, 0, name.length);
        message[name.length] = '\n';
        System.arraycopy(digest, 0, message, name.length + 1, digest.length);
        byte[] expected = DeploymentSecret.hmac(DeploymentSecret.of(SECRET).keyFor("submitter"), message);

        Headers headers = stamped(stamp, Submitter.key("alice"), BODY);

        assertArrayEquals(
                expected,
                headers.lastHeader(dev.proofline.contract.Headers.SUBMITTER_MAC).value());
        assertEquals(Submitter.key("alice"), stamp.submitter(headers, BODY));
        assertEquals(0, stamp.forgedCount());
    }

    @Test
    void aStampOnOtherBytesOrFromAnotherSecretIsKafkasAndCountedForged() {
        Headers headers = stamped(stamp, Submitter.key("alice"), BODY);
        byte[] other = Arrays.copyOf(BODY, BODY.length + 1);
        assertEquals(Submitter.KAFKA, stamp.submitter(headers, other));

        SubmitterStamp elsewhere = new SubmitterStamp(
                DeploymentSecret.of("another secret, also of 32 bytes".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(Submitter.KAFKA, elsewhere.submitter(headers, BODY));

        assertEquals(1, stamp.forgedCount());
        assertEquals(1, elsewhere.forgedCount());
        assertEquals(Submitter.KAFKA, stamp.submitter(new RecordHeaders(), BODY), "no header: a Kafka producer");
        assertEquals(1, stamp.forgedCount());
    }

    @Test
    void threadsStampAndCheckIndependently() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Submitter>> checked = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                Submitter submitter = Submitter.key("caller-" + (i % 7));
                byte[] body = ("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8);
                Headers headers = stamped(stamp, submitter, body);
                checked.add(pool.submit(() -> stamp.submitter(headers, body)));
            }
            for (int i = 0; i < checked.size(); i++) {
                assertEquals(Submitter.key("caller-" + (i % 7)), checked.get(i).get());
            }
            assertEquals(0, stamp.forgedCount());
        } finally {
            pool.shutdownNow();
        }
    }
}
