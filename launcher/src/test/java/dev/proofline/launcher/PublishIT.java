package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
}
