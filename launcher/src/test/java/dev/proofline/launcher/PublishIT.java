package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.contract.Topics;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code proofline publish} on a directory of 1,000 requests, some invalid, against a running Proofline. */
class PublishIT {
    static final int REQUESTS = 1_000;

    @TempDir
    Path tmp;

    @Test
    void publishesADirectoryAndSummarisesPerAgentWithoutControlCharacters() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("requests"));
        int pass = 0;
        int fail = 0;
        int invalid = 0;
        for (int i = 0; i < REQUESTS; i++) {
            Files.write(dir.resolve(String.format("req-%04d.json", i)), TestRequests.request("pub-", i));
            if (!TestRequests.isValid(i)) {
                invalid++;
            } else if (i % 3 == 0) {
                fail++;
            } else {
                pass++;
            }
        }
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"));
                ProoflineNode node = TestNodes.start(kafka.bootstrapServers(), tmp)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int exit = dev.proofline.cli.ProoflineCliAccess.run(
                    List.of(
                            "publish",
                            dir.toString(),
                            "--bootstrap-servers",
                            node.bootstrapServers(),
                            "--url",
                            node.httpUrl()),
                    out);
            String printed = out.toString(StandardCharsets.UTF_8);
            assertEquals(1, exit, "some requests were invalid");
            String totals = printed.lines()
                    .filter(l -> l.startsWith("total"))
                    .findFirst()
                    .orElseThrow();
            assertEquals(
                    List.of("total", Integer.toString(pass), Integer.toString(fail), Integer.toString(invalid), "0"),
                    List.of(totals.trim().split("\\s+")),
                    printed);
            assertTrue(printed.lines().anyMatch(l -> l.startsWith("agent-5 ")), printed);
            assertTrue(
                    printed.chars().noneMatch(c -> c < 0x20 && c != '\n'), "no control characters without a terminal");
        }
    }

    /**
     * {@code --no-wait} waits for Kafka's acknowledgements: a request Kafka refuses (here, larger than
     * the input topic now takes) is counted as not published and the exit is 1, where it used to be
     * dropped with exit 0.
     */
    @Test
    void noWaitReportsWhatKafkaDidNotTake() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("valid"));
        int requests = 20;
        for (int i = 0, written = 0; written < requests; i++) {
            if (TestRequests.isValid(i)) {
                Files.write(dir.resolve(String.format("req-%04d.json", written++)), TestRequests.request("nowait-", i));
            }
        }
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"));
                ProoflineNode node = TestNodes.start(kafka.bootstrapServers(), tmp)) {
            List<String> publish = List.of(
                    "publish",
                    dir.toString(),
                    "--no-wait",
                    "--bootstrap-servers",
                    node.bootstrapServers(),
                    "--url",
                    node.httpUrl());
            ByteArrayOutputStream taken = new ByteArrayOutputStream();
            assertEquals(0, dev.proofline.cli.ProoflineCliAccess.run(publish, taken), taken.toString());
            assertEquals(List.of("total", Integer.toString(requests), "0", "0"), totals(taken));

            try (Admin admin =
                    Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
                ConfigResource input = new ConfigResource(
                        ConfigResource.Type.TOPIC, Topics.defaults().input());
                admin.incrementalAlterConfigs(Map.of(
                                input,
                                List.of(new AlterConfigOp(
                                        new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "64"),
                                        AlterConfigOp.OpType.SET))))
                        .all()
                        .get();
            }
            ByteArrayOutputStream refused = new ByteArrayOutputStream();
            assertEquals(1, dev.proofline.cli.ProoflineCliAccess.run(publish, refused), refused.toString());
            assertEquals(List.of("total", "0", "0", Integer.toString(requests)), totals(refused));
        }
    }

    private static List<String> totals(ByteArrayOutputStream out) {
        String printed = out.toString(StandardCharsets.UTF_8);
        return List.of(printed.lines()
                .filter(l -> l.startsWith("total"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(printed))
                .trim()
                .split("\\s+"));
    }
}
