package dev.proofline.launcher;

import dev.proofline.attestor.Conformance;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.node.ObjectNode;

/**
 * Request records for pipeline tests: invoice variants that pass or fail, and every few records
 * one of three kinds of invalid request.
 */
final class TestRequests {
    private static final String TEMPLATE =
            Conformance.json("requests/invoice-draft.json").toString();
    private static final String[] INVALID = {
        "this is not json",
        "{\"task_id\":\"%s\",\"submitted_output\":{}}",
        "{\"task_id\":\"%s\",\"expected_schema\":{},\"submitted_output\":1,\"rules\":[{\"type\":\"median\",\"field\":\"a\"}]}",
    };

    private TestRequests() {}

    /** Every 16th request is invalid (6.25%). */
    static boolean isValid(int i) {
        return i % 16 != 7;
    }

    static String taskId(int i) {
        return taskId("task-", i);
    }

    static String taskId(String prefix, int i) {
        return prefix + i;
    }

    static String agentId(int i) {
        return "agent-" + (i % 13);
    }

    static byte[] request(int i) {
        return request("task-", i);
    }

    static byte[] request(String taskPrefix, int i) {
        if (!isValid(i)) {
            return INVALID[(i / 16) % INVALID.length]
                    .formatted(taskId(taskPrefix, i))
                    .getBytes(StandardCharsets.UTF_8);
        }
        ObjectNode request = (ObjectNode) dev.proofline.attestor.StrictJson.parse(TEMPLATE);
        request.put("task_id", taskId(taskPrefix, i));
        request.put("agent_id", agentId(i));
        ObjectNode output = (ObjectNode) request.get("submitted_output");
        output.put("total", i % 3 == 0 ? 135.0 : 129.5); // a third fail their sum rule
        return request.toString().getBytes(StandardCharsets.UTF_8);
    }
}
