package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proofline.schemas.RegistryStore;
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
import java.util.stream.IntStream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of the embedded registry, on one topic, register different schemas under one
 * subject at the same moment, round after round: each registration gets a version of its own, and
 * what each caller was told is what every instance reads from the topic afterwards, a new one too.
 */
class RegistryRaceIT {
    private static final int ROUNDS = 6;
    private static final String SUBJECT = "race-value";

    @TempDir
    Path tmp;

    @Test
    void instancesRegisteringOneSubjectAtOnceTakeVersionsOfTheirOwn() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker"));
                RegistryStore one = open(kafka);
                RegistryStore two = open(kafka)) {
            System.out.println("RegistryRaceIT runs on " + kafka.description());
            List<RegistryStore.Version> told = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                CyclicBarrier together = new CyclicBarrier(2);
                String first = schema(round, "one");
                String second = schema(round, "two");
                Future<RegistryStore.Version> byOne = pool.submit(() -> {
                    together.await();
                    return one.register(SUBJECT, first);
                });
                Future<RegistryStore.Version> byTwo = pool.submit(() -> {
                    together.await();
                    return two.register(SUBJECT, second);
                });
                told.add(byOne.get(60, TimeUnit.SECONDS));
                told.add(byTwo.get(60, TimeUnit.SECONDS));
            }

            List<Integer> versions =
                    told.stream().map(RegistryStore.Version::version).sorted().toList();
            assertEquals(
                    IntStream.rangeClosed(1, 2 * ROUNDS).boxed().toList(),
                    versions,
                    "each registration took a version of its own");
            try (RegistryStore later = open(kafka)) {
                assertEquals(versions, later.versions(SUBJECT), "a new instance reads every version");
                for (RegistryStore reader : List.of(one, two, later)) {
                    for (RegistryStore.Version answer : told) {
                        // Registering a schema already there answers its version: the caller's own.
                        assertEquals(answer, reader.register(SUBJECT, answer.schema()), "what the caller was told");
                        assertEquals(answer, reader.version(SUBJECT, Integer.toString(answer.version())), "as stored");
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A record schema with one field of its own, which has a default: any two are compatible both ways. */
    private static String schema(int round, String by) {
        return "{\"type\":\"record\",\"name\":\"Race\",\"fields\":[{\"name\":\"f" + round + "_" + by
                + "\",\"type\":[\"null\",\"string\"],\"default\":null}]}";
    }

    private static RegistryStore open(TestKafka kafka) {
        return RegistryStore.open(
                Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), Optional.empty());
    }
}
