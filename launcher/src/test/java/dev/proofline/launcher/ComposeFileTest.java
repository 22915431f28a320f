package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.attestor.Conformance;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * docker-compose.yml cannot run here (no Docker engine), so it is checked as data: the services,
 * images, ports and dependencies, and that every PROOFLINE_* variable is a setting Proofline knows.
 */
class ComposeFileTest {
    private final JsonNode compose =
            new YAMLMapper().readTree(Files.readString(Conformance.repoRoot().resolve("docker-compose.yml")));
    private final JsonNode services = compose.get("services");

    ComposeFileTest() throws Exception {}

    private List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }

    @Test
    void theTopologyIsThreeBrokersARealRegistryTwoInstancesAndTheLoadGenerator() {
        assertEquals(
                Set.of("kafka-1", "kafka-2", "kafka-3", "schema-registry", "proofline-1", "proofline-2", "load"),
                Set.copyOf(names(services)));
        Set<String> voters = new java.util.HashSet<>();
        for (int n = 1; n <= 3; n++) {
            JsonNode broker = services.get("kafka-" + n);
            assertTrue(broker.get("image").asString().startsWith("apache/kafka:"), "the official Kafka image");
            JsonNode env = broker.get("environment");
            assertTrue(env.get("KAFKA_PROCESS_ROLES").asString().contains("controller"), "KRaft");
            assertEquals(n, env.get("KAFKA_NODE_ID").asInt());
            voters.add(env.get("KAFKA_CONTROLLER_QUORUM_VOTERS").asString());
            assertEquals("3", env.get("KAFKA_DEFAULT_REPLICATION_FACTOR").asString(), "every topic three times");
            assertEquals("2", env.get("KAFKA_MIN_INSYNC_REPLICAS").asString());
            assertEquals("2", env.get("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR").asString());
        }
        assertEquals(Set.of("1@kafka-1:9093,2@kafka-2:9093,3@kafka-3:9093"), voters, "one quorum of three voters");
        assertTrue(
                services.get("schema-registry").get("image").asString().startsWith("confluentinc/cp-schema-registry:"));
        for (String instance : List.of("proofline-1", "proofline-2", "load")) {
            assertEquals(
                    ".", services.get(instance).get("build").asString(), instance + " is built from the Dockerfile");
            assertEquals("proofline:0.1.0", services.get(instance).get("image").asString());
        }
        assertEquals("load", services.get("load").get("command").get(0).asString());
    }

    @Test
    void bothInstancesShareTheWorkTheKeysAndTheExternalRegistry() throws Exception {
        JsonNode one = services.get("proofline-1").get("environment");
        JsonNode two = services.get("proofline-2").get("environment");
        for (String shared : List.of(
                "PROOFLINE_APPLICATION_ID",
                "PROOFLINE_BOOTSTRAP_SERVERS",
                "PROOFLINE_SCHEMA_REGISTRY_URL",
                "PROOFLINE_KEYS_DIR",
                "PROOFLINE_TOPICS_PARTITIONS")) {
            assertEquals(one.get(shared), two.get(shared), shared);
        }
        assertEquals(
                "kafka-1:9092,kafka-2:9092,kafka-3:9092",
                one.get("PROOFLINE_BOOTSTRAP_SERVERS").asString());
        String registryListener = services.get("schema-registry")
                .get("environment")
                .get("SCHEMA_REGISTRY_LISTENERS")
                .asString();
        assertTrue(
                one.get("PROOFLINE_SCHEMA_REGISTRY_URL")
                        .asString()
                        .startsWith("http://schema-registry:"
                                + registryListener.substring(registryListener.lastIndexOf(':') + 1)),
                "points at the registry's listener");
        assertNotEquals(one.get("PROOFLINE_HOST"), two.get("PROOFLINE_HOST"), "each advertises its own address");
        assertEquals("proofline-1", one.get("PROOFLINE_HOST").asString());
        List<String> keyVolumes = new ArrayList<>();
        for (String instance : List.of("proofline-1", "proofline-2")) {
            services.get(instance).get("volumes").forEach(v -> {
                if (v.asString().endsWith(":/keys")) {
                    keyVolumes.add(v.asString());
                }
            });
            // Every PROOFLINE_ variable names a setting (Proofline passes over one that does not), and
            // the environment loads as Proofline would load it.
            Map<String, String> env = new HashMap<>();
            services.get(instance)
                    .get("environment")
                    .properties()
                    .forEach(e -> env.put(e.getKey(), e.getValue().asString()));
            assertEquals(List.of(), ProoflineConfig.unknownVariables(env), instance);
            ProoflineConfig config = ProoflineConfig.load(Map.of(), env);
            assertEquals(
                    java.nio.file.Path.of("/keys"),
                    config.get(Settings.KEYS_DIR).orElseThrow());
        }
        assertEquals(List.of("proofline-keys:/keys", "proofline-keys:/keys"), keyVolumes, "one key ring for both");
        assertTrue(compose.get("volumes").has("proofline-keys"));
    }

    @Test
    void portsDoNotCollideAndDependenciesPointAtServicesThatExist() {
        Set<String> hostPorts = new HashSet<>();
        for (String service : names(services)) {
            JsonNode ports = services.get(service).get("ports");
            if (ports != null) {
                ports.forEach(p -> assertTrue(hostPorts.add(p.asString().split(":")[0]), "host port used twice: " + p));
            }
            JsonNode dependsOn = services.get(service).get("depends_on");
            if (dependsOn != null) {
                for (String dependency : names(dependsOn)) {
                    assertTrue(services.has(dependency), service + " depends on unknown " + dependency);
                    assertEquals(
                            "service_healthy",
                            dependsOn.get(dependency).get("condition").asString(),
                            service + " -> " + dependency);
                    assertTrue(
                            services.get(dependency).has("healthcheck"),
                            dependency + " needs a health check to be waited on");
                }
            }
        }
        assertEquals(Set.of("29092", "29093", "29094", "8081", "8080", "8082"), hostPorts);
        assertEquals(
                Set.of("kafka-1", "kafka-2", "kafka-3", "schema-registry"),
                Set.copyOf(names(services.get("proofline-1").get("depends_on"))));
        assertEquals(
                Set.of("proofline-1"),
                Set.copyOf(names(services.get("proofline-2").get("depends_on"))),
                "the second instance starts after the first has created the key ring and topics");
        assertEquals(
                Set.of("kafka-1", "kafka-2", "kafka-3"),
                Set.copyOf(names(services.get("schema-registry").get("depends_on"))));
    }

    @Test
    void theDockerfileBuildsTheJarTheLauncherShadesAndRunsUp() throws Exception {
        String dockerfile = Files.readString(Conformance.repoRoot().resolve("Dockerfile"));
        assertTrue(
                dockerfile.contains("COPY --from=build /src/launcher/target/proofline.jar"), "the shaded jar's name");
        assertTrue(Files.readString(Conformance.repoRoot().resolve("launcher/pom.xml"))
                .contains("<finalName>proofline</finalName>"));
        assertTrue(dockerfile.contains("CMD [\"up\"]"));
        assertTrue(dockerfile.lines().anyMatch(l -> l.startsWith("FROM eclipse-temurin:17")), "runs on Java 17");
    }
}
