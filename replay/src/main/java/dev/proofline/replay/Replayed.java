package dev.proofline.replay;

import java.util.Map;
import java.util.UUID;

/**
 * One request re-verified: where it was read, whose it is, what the candidate rules say about it,
 * and the hashes of the request as read now (compared with those its original receipt recorded).
 *
 * @param asRead the four hashes of the request as read; empty when it is not a JSON object
 */
record Replayed(
        int partition,
        long offset,
        long timestamp,
        UUID verificationId,
        String agentId,
        String taskId,
        Outcome candidate,
        Map<String, String> asRead) {
    Replayed {
        asRead = Map.copyOf(asRead);
    }
}
