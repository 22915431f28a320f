package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.access.CallerRecord;
import dev.proofline.access.CallerRegistry;
import dev.proofline.access.CallerTokens;
import dev.proofline.attestor.DeploymentSecret;
import dev.proofline.cli.ProoflineCliAccess;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A name is issued once, even to {@code caller add} runs that start together: exactly one of them
 * prints a token, every other says the name is taken or was added at the same moment, and the
 * deployment accepts the one token printed.
 */
class CallerAddRaceIT {
    private static final int RUNS = 5;

    @TempDir
    Path tmp;

    @Test
    void concurrentAddsOfOneNameIssueItOnce() throws Exception {
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"))) {
            DeploymentSecret secret = DeploymentSecret.openOrCreate(tmp.resolve("keys"));
            ExecutorService pool = Executors.newFixedThreadPool(RUNS);
            try {
                for (String name : List.of("racer-one", "racer-two")) {
                    CyclicBarrier together = new CyclicBarrier(RUNS);
                    List<Future<String>> runs = new ArrayList<>();
                    for (int i = 0; i < RUNS; i++) {
                        runs.add(pool.submit(() -> {
                            together.await();
                            ByteArrayOutputStream out = new ByteArrayOutputStream();
                            int exit = ProoflineCliAccess.run(
                                    List.of(
                                            "caller",
                                            "add",
                                            name,
                                            "--bootstrap-servers",
                                            kafka.bootstrapServers(),
                                            "--data-dir",
                                            tmp.resolve("node").toString(),
                                            "--keys-dir",
                                            tmp.resolve("keys").toString()),
                                    out);
                            assertTrue(exit == 0 || exit == 2, "exit " + exit);
                            return exit == 0
                                    ? out.toString(StandardCharsets.UTF_8).trim()
                                    : null;
                        }));
                    }
                    List<String> tokens = new ArrayList<>();
                    for (Future<String> run : runs) {
                        String token = run.get(120, TimeUnit.SECONDS);
                        if (token != null) {
                            tokens.add(token);
                        }
                    }
                    assertEquals(1, tokens.size(), name + " was issued " + tokens.size() + " times");
                    try (CallerRegistry registry = CallerRegistry.open(
                            Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                            "proofline-callers",
                            secret,
                            Optional.empty(),
                            Map.of())) {
                        assertEquals(
                                CallerTokens.hash(tokens.get(0)),
                                registry.named(name)
                                        .map(CallerRecord::tokenSha256)
                                        .orElse(""),
                                "the deployment holds the one token printed");
                        assertTrue(registry.byToken(tokens.get(0)).isPresent());
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
